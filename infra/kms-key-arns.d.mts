/** LIGHTKEEPER_KMS_KEY_ARNS's key ARNs, or an Error naming the entry that is not one key's ARN. */
export declare function kmsKeyArns(raw?: string): string[] | Error;
