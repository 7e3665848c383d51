/** Password length the api accepts (locales: validation.passwordRule). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;

/** Returns the translation key of the first broken rule, or '' when the new password is fine. */
export function validateNewPassword(password: string, oldPassword?: string): string {
  if (!password) return 'validation.newPasswordRequired';
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'validation.passwordRule';
  if (oldPassword !== undefined && password === oldPassword) return 'validation.newPasswordSame';
  return '';
}

/** SPEC §5 change password, all checked on blur. Keys by field, '' when fine. */
export function validateChangePassword(v: { oldPassword: string; newPassword: string; repeat: string }) {
  return {
    oldPassword: v.oldPassword ? '' : 'validation.oldPasswordRequired',
    newPassword: validateNewPassword(v.newPassword, v.oldPassword || undefined),
    repeat: !v.repeat
      ? 'validation.repeatPasswordRequired'
      : v.repeat !== v.newPassword
        ? 'validation.repeatPasswordDiffer'
        : '',
  };
}
