import { Fragment, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Breadcrumb } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { breadcrumbItems, type BreadcrumbItem } from '../utils/breadcrumbItems';

/** SPEC §2 breadcrumb; kept as it was while passing through /redirect/. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const last = useRef<BreadcrumbItem[]>([]);
  if (!pathname.startsWith('/redirect/')) last.current = breadcrumbItems(pathname);
  const items = last.current;
  return (
    <Breadcrumb className="app-breadcrumb" data-testid="breadcrumb">
      {items.map((item, i) => (
        <Fragment key={item.title + i}>
          {i > 0 && <Breadcrumb.Divider icon="right angle" />}
          {item.to ? (
            <Breadcrumb.Section as={Link} to={item.to}>
              {t(`routes.${item.title}`)}
            </Breadcrumb.Section>
          ) : (
            <Breadcrumb.Section active>{t(`routes.${item.title}`)}</Breadcrumb.Section>
          )}
        </Fragment>
      ))}
    </Breadcrumb>
  );
}
