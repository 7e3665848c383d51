import { Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AnnouncementType } from '@pm/shared';
import type { AnnouncementDetail } from '../../api';
import { roundedPercentages } from '../utils/pieSeries';
import { ResultPie } from './ResultPie';

/** Read results in totals (SPEC §4) and, for a vote, the votes per option; both as pies that move live. */
export function AnnouncementResults({ detail }: { detail: AnnouncementDetail }) {
  const { t } = useTranslation();
  const isVote = detail.type === AnnouncementType.vote;
  const totals = detail.totals;
  const readSlices = isVote
    ? [
        { name: t('announcements.totals.unread'), value: totals.unread },
        { name: t('announcements.totals.readNotVoted'), value: totals.readNotVoted },
        { name: t('announcements.totals.readAndVoted'), value: totals.readAndVoted },
      ]
    : [
        { name: t('announcements.totals.unread'), value: totals.unread },
        { name: t('announcements.totals.read'), value: totals.read },
      ];
  const votePercents = roundedPercentages(detail.options.map((o) => o.votes));
  return (
    <div className="announcement-results" data-testid="announcement-results">
      <p>
        {t('announcements.totals.recipients')}: <strong data-testid="total-recipients">{totals.recipients}</strong>
      </p>
      <div className="announcement-pies">
        <ResultPie title={t('announcements.chartRead')} slices={readSlices} data-testid="read-pie" />
        {isVote && (
          <ResultPie
            title={t('announcements.chartVote')}
            slices={detail.options.map((o) => ({ name: o.content, value: o.votes }))}
            data-testid="vote-pie"
          />
        )}
      </div>
      {isVote && (
        <Table compact unstackable data-testid="vote-result">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t('announcements.fields.option', { n: '' }).trim()}</Table.HeaderCell>
              <Table.HeaderCell>{t('announcements.fields.votes')}</Table.HeaderCell>
              <Table.HeaderCell>%</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {detail.options.map((o, i) => (
              <Table.Row key={o.id}>
                <Table.Cell>{o.content}</Table.Cell>
                <Table.Cell>{o.votes}</Table.Cell>
                <Table.Cell>{votePercents[i]}%</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </div>
  );
}
