import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** What osls packaged into a directory (`.serverless/`), read back as a deploy would read it. */
export interface PackagedStack {
  functions: PackagedFunction[];
  layers: PackagedLayer[];
  /** Every S3 key of the deployment bucket the update template names, wherever it is named. */
  uploadedKeys: string[];
  /** `package.artifact` of each function in serverless-state.json, by function name. */
  stateArtifacts: Record<string, string>;
}

export interface PackagedFunction {
  logicalId: string;
  /** The zip in the package directory its code comes from. */
  zip: string;
  handler: string;
  runtime: string;
  architectures: string[];
  /** Logical ids of the layers it references. */
  layers: string[];
  environment: Record<string, unknown>;
}

export interface PackagedLayer {
  logicalId: string;
  zip: string;
  architectures: string[];
}

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

const deploymentBucket = { Ref: 'ServerlessDeploymentBucket' };

type Template = { Resources: Record<string, Resource> };
type State = { service: { functions: Record<string, { package?: { artifact?: string } }> } };

/** `osls package`'s output directory: the update template and the state a deploy restores. */
export function readPackagedStack(dir: string): PackagedStack {
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
  return stackArtifacts(
    read('cloudformation-template-update-stack.json'),
    read('serverless-state.json'),
    dir,
  );
}

/** The artifacts a template and state name, each zip looked for in `dir` by its S3 key's file name. */
export function stackArtifacts(template: Template, state: State, dir: string): PackagedStack {
  const resources = Object.entries(template.Resources);
  const zipOf = (code: unknown) => {
    const { S3Bucket, S3Key } = code as { S3Bucket: unknown; S3Key: string };
    if (JSON.stringify(S3Bucket) !== JSON.stringify(deploymentBucket))
      throw new Error(`code outside the deployment bucket: ${JSON.stringify(code)}`);
    return join(dir, basename(S3Key));
  };
  return {
    functions: resources
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([logicalId, { Properties: p }]) => ({
        logicalId,
        zip: zipOf(p.Code),
        handler: p.Handler as string,
        runtime: p.Runtime as string,
        architectures: (p.Architectures as string[] | undefined) ?? ['x86_64'],
        layers: ((p.Layers as Array<{ Ref: string }> | undefined) ?? []).map((l) => l.Ref),
        environment: (p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
      })),
    layers: resources
      .filter(([, r]) => r.Type === 'AWS::Lambda::LayerVersion')
      .map(([logicalId, { Properties: p }]) => ({
        logicalId,
        zip: zipOf(p.Content),
        architectures: (p.CompatibleArchitectures as string[] | undefined) ?? [],
      })),
    uploadedKeys: s3KeysIn(template),
    stateArtifacts: Object.fromEntries(
      Object.entries(state.service.functions).map(([name, f]) => [name, f.package?.artifact ?? '']),
    ),
  };
}

function s3KeysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(s3KeysIn);
  if (value === null || typeof value !== 'object') return [];
  const o = value as Record<string, unknown>;
  const own =
    typeof o.S3Key === 'string' && JSON.stringify(o.S3Bucket) === JSON.stringify(deploymentBucket)
      ? [o.S3Key]
      : [];
  return [...own, ...Object.values(o).flatMap(s3KeysIn)];
}

/** `functions/webhook.handler` → the module Lambda's Node.js runtime loads and the export it calls. */
export function handlerEntry(handler: string): { module: string; export: string } {
  const dot = handler.lastIndexOf('.');
  return { module: handler.slice(0, dot), export: handler.slice(dot + 1) };
}

/** ELF machine of an executable: 183 is AArch64 (arm64), 62 x86-64. */
export function elfMachine(bytes: Buffer): number | undefined {
  const isElf64 = bytes.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && bytes[4] === 2;
  return isElf64 ? bytes.readUInt16LE(18) : undefined;
}
