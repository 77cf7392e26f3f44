// A real SMTP server on loopback (smtp-server) that keeps every message it is given, for tests of the e-mails the
// service sends. Plain SMTP without STARTTLS or authentication, as a local relay may be.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  /** The headers as sent, unfolded. */
  headers: string;
  /** The body, its quoted-printable decoded. */
  text: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedEmail[];
  close(): Promise<void>;
}

/** `refuseRecipients`: every recipient (or those it picks) is answered 550, naming the address, as a real server does. */
export async function startSmtpServer(
  options: { refuseRecipients?: boolean | ((address: string) => boolean) } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const { refuseRecipients } = options;
      if (typeof refuseRecipients === 'function' ? !refuseRecipients(address.address) : !refuseRecipients) return callback();
      callback(Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
        const body = raw.slice(split + 4);
        const quotedPrintable = /^content-transfer-encoding:\s*quoted-printable/im.test(headers);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          headers,
          text: quotedPrintable
            ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
            : body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
