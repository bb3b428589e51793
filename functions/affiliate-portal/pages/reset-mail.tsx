/** The password-reset mail: HTML rendered like the pages (escaped by construction) and a plain-text part. */
import { render } from 'preact-render-to-string';

/** The mail a reset link goes out in: its HTML escaped by construction, as the pages are. */
export interface ResetMail {
  subject: string;
  text: string;
  html: string;
}

export function resetMail(link: string, firstName: string, appName: string): ResetMail {
  const subject = `Reset your ${appName} affiliate password`;
  const text = `Hello ${firstName},\n\nTo choose a new password for your ${appName} affiliate account, open this link within an hour (it works once):\n\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n`;
  const html = render(
    <div style="font-family: system-ui, sans-serif; font-size: 16px; line-height: 1.5; color: #1b2233">
      <p>Hello {firstName},</p>
      <p>To choose a new password for your {appName} affiliate account, open this link within an hour (it works once):</p>
      <p>
        <a href={link}>Choose a new password</a>
      </p>
      <p style="color: #5b6478">If you did not ask for this, ignore this mail: your password stays as it is.</p>
    </div>,
  );
  return { subject, text, html: `<!doctype html>\n${html}` };
}
