import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Form, Message, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { checkForgetPasswordCode, resetForgottenPassword, sendForgetPasswordCode } from '../../api';
import { LanguageSelector } from '../../i18n/components/LanguageSelector';
import { validateNewPassword } from '../../profile/utils/passwordRules';
import './login.css';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const RESEND_SECONDS = 60;
const SUCCESS_SECONDS = 5;

/** /forget-password (SPEC §2, §5): e-mail, a code valid 5 minutes, the new password twice. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [info, setInfo] = useState('');
  const [resendIn, setResendIn] = useState(0);
  const [successIn, setSuccessIn] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (resendIn <= 0) return;
    const id = setTimeout(() => setResendIn((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [resendIn]);

  useEffect(() => {
    if (successIn === null) return;
    if (successIn <= 0) {
      navigate('/login', { replace: true });
      return;
    }
    const id = setTimeout(() => setSuccessIn((s) => (s ?? 1) - 1), 1000);
    return () => clearTimeout(id);
  }, [successIn, navigate]);

  const emailError = () =>
    !email.trim() ? t('validation.emailRequired') : !EMAIL.test(email.trim()) ? t('validation.emailInvalid') : '';

  const sendCode = async () => {
    const e = emailError();
    setErrors(e ? { email: e } : {});
    if (e) return;
    setBusy(true);
    try {
      await sendForgetPasswordCode(email.trim());
      setInfo(t('forgetPassword.codeSent'));
      setResendIn(RESEND_SECONDS);
    } catch {
      // the http layer showed the reason
    } finally {
      setBusy(false);
    }
  };

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const next: Record<string, string> = {};
    const e = emailError();
    if (e) next.email = e;
    if (!code.trim()) next.code = t('validation.codeRequired');
    const p = validateNewPassword(password);
    if (p) next.password = t(p);
    if (!repeat) next.repeat = t('validation.repeatPasswordRequired');
    else if (repeat !== password) next.repeat = t('validation.repeatPasswordDiffer');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await checkForgetPasswordCode(email.trim(), code.trim());
      await resetForgottenPassword(email.trim(), code.trim(), password);
      setSuccessIn(SUCCESS_SECONDS);
    } catch {
      // the http layer showed the reason
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (k: string) => (errors[k] ? { content: errors[k], pointing: 'above' as const } : undefined);
  return (
    <main className="login-page">
      <div className="login-language">
        <LanguageSelector inverted />
      </div>
      <Segment className="login-card" raised>
        <h1 className="login-title">{t('forgetPassword.title')}</h1>
        {successIn !== null ? (
          <Message positive data-testid="reset-success" content={t('forgetPassword.success', { count: successIn })} />
        ) : (
          <Form onSubmit={submit} noValidate>
            <Form.Input
              id="forget-email"
              label={t('forgetPassword.email')}
              type="email"
              name="email"
              value={email}
              onChange={(_, d) => setEmail(String(d.value))}
              error={fieldError('email')}
            />
            <Form.Field error={!!errors.code}>
              <label htmlFor="forget-code">{t('forgetPassword.code')}</label>
              <div className="code-row">
                <Form.Input
                  id="forget-code"
                  name="code"
                  value={code}
                  onChange={(_, d) => setCode(String(d.value))}
                  error={fieldError('code')}
                />
                <Button type="button" onClick={() => void sendCode()} disabled={busy || resendIn > 0}>
                  {resendIn > 0 ? t('forgetPassword.resend', { count: resendIn }) : t('forgetPassword.sendCode')}
                </Button>
              </div>
            </Form.Field>
            {info && <Message info size="small" content={info} />}
            <Form.Input
              id="forget-password"
              label={t('forgetPassword.newPassword')}
              type="password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(_, d) => setPassword(String(d.value))}
              error={fieldError('password')}
            />
            <Form.Input
              id="forget-repeat"
              label={t('forgetPassword.repeatPassword')}
              type="password"
              name="repeat"
              autoComplete="new-password"
              value={repeat}
              onChange={(_, d) => setRepeat(String(d.value))}
              error={fieldError('repeat')}
            />
            <Button type="submit" primary fluid loading={busy} disabled={busy}>
              {t('forgetPassword.submit')}
            </Button>
          </Form>
        )}
        <div className="login-links">
          <Link to="/login">{t('forgetPassword.backToLogin')}</Link>
        </div>
      </Segment>
    </main>
  );
}
