import { useCallback, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Form, Message, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { COPYRIGHT_FROM_YEAR, LOGIN_FAILURES_BEFORE_CAPTCHA, VERSION_LABEL } from '@pm/shared';
import { ApiError, checkCaptcha, fetchCaptchaPuzzle, requestToken, type CaptchaPuzzle } from '../../api';
import { LanguageSelector } from '../../i18n/components/LanguageSelector';
import { showToast } from '../../ui/states/toasts';
import { session, setToken } from '../states/session';
import { loadSession } from '../utils/loginFlow';
import { safeRedirect } from '../utils/safeRedirect';
import { SliderCaptcha, type CaptchaStatus } from './SliderCaptcha';
import './login.css';

/** /login (SPEC §2, §4): account and password, a slider captcha after repeated failures. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const snap = useSnapshot(session);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ account: false, password: false });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [failures, setFailures] = useState(0);
  const [puzzle, setPuzzle] = useState<CaptchaPuzzle | null>(null);
  const [captchaOn, setCaptchaOn] = useState(false);
  const [captchaX, setCaptchaX] = useState<number | undefined>(undefined);
  const [captchaStatus, setCaptchaStatus] = useState<CaptchaStatus>('idle');

  // The status turns back to "drag" only with the new puzzle: until it arrives, a "failed" one
  // stays on screen, so nobody (nor "place the piece for me") works on a puzzle already used up.
  const loadPuzzle = useCallback(async () => {
    setCaptchaX(undefined);
    try {
      const next = await fetchCaptchaPuzzle();
      setPuzzle(next);
      setCaptchaStatus('idle');
    } catch (e) {
      setError(e instanceof Error ? e.message : t('errors.generic'));
    }
  }, [t]);

  const showCaptcha = useCallback(
    (status: CaptchaStatus = 'idle') => {
      setCaptchaOn(true);
      void loadPuzzle().then(() => setCaptchaStatus(status));
    },
    [loadPuzzle],
  );

  // The api checks the drop; a miss uses the puzzle up, so a fresh one follows.
  const drop = async (x: number) => {
    if (!puzzle) return;
    // The captcha's own line tells the outcome; an older "please drag" below it would contradict it.
    setError('');
    try {
      const { passed } = await checkCaptcha(puzzle.captchaId, x);
      if (passed) {
        setCaptchaX(x);
        setCaptchaStatus('passed');
        setError('');
      } else {
        setCaptchaStatus('failed');
        setTimeout(() => void loadPuzzle(), 1000);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : t('errors.generic'));
    }
  };

  // A signed-in visitor has nothing to do here (SPEC §2): on to the redirect target, or /.
  // This also covers the render right after a sign-in, which react-router's transition-wrapped
  // navigate() may let run before the navigation commits.
  if (snap.token && !loading) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  const accountError = touched.account && !account.trim() ? t('validation.accountRequired') : '';
  const passwordError = touched.password && !password ? t('validation.passwordRequired') : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ account: true, password: true });
    setError('');
    const username = account.trim();
    if (!username || !password) return;
    if (captchaOn && (captchaStatus !== 'passed' || captchaX === undefined || !puzzle)) {
      setError(t('captcha.drag'));
      return;
    }
    setLoading(true);
    try {
      const answer = await requestToken({
        username,
        password,
        ...(captchaOn && puzzle && captchaX !== undefined ? { captchaId: puzzle.captchaId, captchaX } : {}),
      });
      if (captchaOn) setCaptchaStatus('passed');
      setToken(answer.access_token);
      await loadSession();
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : t('errors.generic');
      const needsCaptcha = err instanceof ApiError && err.status === 428;
      const count = failures + 1;
      setFailures(count);
      // After 3 failures (or when the api asks, 428) the slider captcha shows; a puzzle sent
      // with a login is spent, so a fresh one follows every failed attempt.
      if (needsCaptcha || count >= LOGIN_FAILURES_BEFORE_CAPTCHA || captchaOn) showCaptcha();
      setError(message);
      if (!(err instanceof ApiError)) showToast('error', message);
    } finally {
      setLoading(false);
    }
  };

  const year = new Date().getFullYear();
  return (
    <main className="login-page">
      <div className="login-language">
        <LanguageSelector inverted />
      </div>
      <Segment className="login-card" raised>
        <h1 className="login-title">{t('app.title')}</h1>
        <p className="login-subtitle">{t('login.title')}</p>
        <Form onSubmit={submit} error={!!error} noValidate data-testid="login-form">
          <Form.Input
            id="login-account"
            label={t('login.account')}
            name="account"
            icon="user"
            iconPosition="left"
            autoComplete="username"
            value={account}
            onChange={(_, d) => setAccount(String(d.value))}
            onBlur={() => setTouched((s) => ({ ...s, account: true }))}
            error={accountError ? { content: accountError, pointing: 'above' } : undefined}
          />
          <Form.Input
            id="login-password"
            label={t('login.password')}
            name="password"
            type="password"
            icon="lock"
            iconPosition="left"
            autoComplete="current-password"
            value={password}
            onChange={(_, d) => setPassword(String(d.value))}
            onBlur={() => setTouched((s) => ({ ...s, password: true }))}
            error={passwordError ? { content: passwordError, pointing: 'above' } : undefined}
          />
          {captchaOn && (
            <SliderCaptcha
              puzzle={puzzle}
              status={captchaStatus}
              onDrop={(x) => void drop(x)}
              onRefresh={() => void loadPuzzle()}
            />
          )}
          <Message error content={error} data-testid="login-error" />
          <Button type="submit" primary fluid loading={loading} disabled={loading} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <div className="login-links">
          <Link to="/forget-password">{t('login.forgot')}</Link>
          <span className="login-version" data-testid="version-label">
            {t('app.version', { version: VERSION_LABEL })}
          </span>
        </div>
      </Segment>
      <footer className="login-copyright" data-testid="copyright">
        {t('app.copyright', { from: COPYRIGHT_FROM_YEAR, to: year })}
      </footer>
    </main>
  );
}
