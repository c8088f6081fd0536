// LIGHTKEEPER_KMS_KEY_ARNS: the KMS keys the reconcile function's role may call kms:Decrypt on
// (serverless.yml splits it into the statement's Resource; empty: no KMS statement at all). Each
// entry must be one key's ARN: no wildcard, no alias (IAM authorizes Decrypt on the key's ARN), so a
// deployment can never grant kms:Decrypt on `*`. infra/osls.mjs checks it before packaging.
const keyArn = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key\/[A-Za-z0-9-]+$/;

/** The setting's ARNs, or an Error naming the entry that is not one key's ARN. */
export function kmsKeyArns(raw = '') {
  if (raw.trim() === '') return [];
  const arns = raw.split(',');
  const bad = arns.find((arn) => !keyArn.test(arn));
  if (bad !== undefined)
    return new Error(
      `LIGHTKEEPER_KMS_KEY_ARNS: ${JSON.stringify(bad)} is not a KMS key ARN (arn:aws:kms:REGION:ACCOUNT:key/ID, comma-separated, no spaces, no wildcard)`,
    );
  return arns;
}
