import nodemailer, { type Transporter } from 'nodemailer';
import type { ComposedNotice } from './messages';

/** Sends notices over SMTP (`HOOKRAIL_SMTP_URL`, from `HOOKRAIL_SMTP_FROM`). */
export class EmailSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 5000,
      greetingTimeout: 5000,
      socketTimeout: 10_000,
    });
  }

  async send(to: string, notice: ComposedNotice): Promise<void> {
    await this.transport.sendMail({ from: this.from, to, subject: notice.subject, text: notice.text });
  }

  close(): void {
    this.transport.close();
  }
}
