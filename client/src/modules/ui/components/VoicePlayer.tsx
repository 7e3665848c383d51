import { useRef, useState } from 'react';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { formatVoiceDuration, parseVoiceSource } from '../utils/voiceSource';

/** Plays a "path?seconds" voice message; without a duration it says the audio was not found. */
export function VoicePlayer({ source }: { source: string }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  const { url, seconds } = parseVoiceSource(source);
  if (seconds === undefined) return <span className="voice-missing">{t('errors.audioNotFound')}</span>;
  const d = formatVoiceDuration(seconds);
  const label = 'count' in d ? t('common.seconds', { count: d.count }) : d.text;

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (playing) {
      el.pause();
      el.currentTime = 0;
      setPlaying(false);
    } else {
      el.play().then(
        () => setPlaying(true),
        () => setFailed(true),
      );
    }
  };
  return (
    <span className="voice-player">
      <Button size="mini" basic icon labelPosition="left" onClick={toggle} type="button">
        <Icon name={playing ? 'stop' : 'play'} />
        {label}
      </Button>
      {failed && <span className="voice-missing">{t('errors.audioFailed')}</span>}
      <audio ref={audio} src={url} preload="none" onEnded={() => setPlaying(false)} onError={() => setFailed(true)}>
        {t('errors.audioUnsupported')}
      </audio>
    </span>
  );
}
