export declare const nodeMajor: number;
export declare function unsupportedNode(root: string, version?: string): string | undefined;
