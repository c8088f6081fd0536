import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MotoServer } from './motoServer';

/** One call of KMS's JSON API on moto (it routes by the credential scope; it checks no signature). */
export async function kmsCall(
  moto: MotoServer,
  action: string,
  body: object,
): Promise<Record<string, unknown>> {
  const response = await fetch(moto.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `TrentService.${action}`,
      authorization:
        'AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/kms/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`KMS ${action}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A new symmetric key on moto's KMS: its ARN. */
export async function createKmsKey(moto: MotoServer): Promise<string> {
  const { KeyMetadata } = (await kmsCall(moto, 'CreateKey', {})) as { KeyMetadata: { Arn: string } };
  return KeyMetadata.Arn;
}

export interface KmsWitness {
  endpoint: string;
  /** The encryption context of every Decrypt that reached KMS through this proxy, in order. */
  decrypts: Array<Record<string, string>>;
  /** Settles when the first Decrypt arrives. */
  firstDecrypt: Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of moto that records every KMS Decrypt it passes on (what was asked of
 * KMS). With `hold`, it never answers a Decrypt: the decryptor waits there, mid-render.
 */
export async function kmsWitness(moto: MotoServer, options: { hold?: boolean } = {}): Promise<KmsWitness> {
  const target = new URL(moto.endpoint);
  const decrypts: KmsWitness['decrypts'] = [];
  let arrived: () => void = () => {};
  const firstDecrypt = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (String(req.headers['x-amz-target']).endsWith('.Decrypt')) {
        const { EncryptionContext } = JSON.parse(body.toString()) as {
          EncryptionContext?: Record<string, string>;
        };
        decrypts.push(EncryptionContext ?? {});
        arrived();
        if (options.hold) return;
      }
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    decrypts,
    firstDecrypt,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
