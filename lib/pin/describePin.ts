/** `pinned at X by B, head is Y`: the words of the Pinned condition, the Warning Event and the CLI. */
export function describePin(pin: {
  commit: string;
  by?: string | undefined;
  head?: string | undefined;
}): string {
  return `pinned at ${pin.commit}${pin.by ? ` by ${pin.by}` : ''}, head is ${pin.head ?? 'unknown'}`;
}
