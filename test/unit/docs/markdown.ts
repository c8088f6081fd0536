// What the docs tests read from Markdown: heading anchors as GitHub computes them, relative links,
// and the lightkeeper command lines quoted in code. A small reader of the subset the docs use
// (fenced blocks, code spans, inline links), not a full CommonMark parser.

/** One piece of a Markdown file: code (a fenced block's line or a code span) or prose. */
interface Piece {
  readonly kind: 'fence' | 'span' | 'prose';
  readonly text: string;
  readonly line: number;
}

const fenceLine = /^\s*(```|~~~)/;
const codeSpan = /(`+)([\s\S]*?[^`])\1(?!`)/g;

function pieces(markdown: string): Piece[] {
  const out: Piece[] = [];
  const lines = markdown.split('\n');
  let prose: string[] = [];
  let proseStart = 1;
  const flushProse = () => {
    const text = prose.join('\n');
    let last = 0;
    for (const m of text.matchAll(codeSpan)) {
      const at = (s: number) => proseStart + text.slice(0, s).split('\n').length - 1;
      out.push({ kind: 'prose', text: text.slice(last, m.index), line: at(last) });
      out.push({ kind: 'span', text: m[2]!.replace(/\s+/g, ' ').trim(), line: at(m.index) });
      last = m.index + m[0].length;
    }
    out.push({
      kind: 'prose',
      text: text.slice(last),
      line: proseStart + text.slice(0, last).split('\n').length - 1,
    });
    prose = [];
  };
  let inFence = false;
  lines.forEach((text, i) => {
    if (fenceLine.test(text)) {
      if (!inFence) flushProse();
      inFence = !inFence;
      proseStart = i + 2;
    } else if (inFence) out.push({ kind: 'fence', text, line: i + 1 });
    else prose.push(text);
  });
  flushProse();
  return out;
}

/** A heading's anchor as GitHub makes it: its text lowercased, punctuation dropped, spaces as `-`. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a file's headings define; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (fenceLine.test(line)) inFence = !inFence;
    const m = inFence ? null : /^#{1,6} +(.+?)(?: +#+)? *$/.exec(line);
    if (!m) continue;
    const slug = githubSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** Inline links and images outside code whose target is a path or a `#fragment`, not a URL. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const piece of pieces(markdown)) {
    if (piece.kind !== 'prose') continue;
    for (const m of piece.text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ target, line: piece.line + piece.text.slice(0, m.index).split('\n').length - 1 });
    }
  }
  return links;
}

export interface QuotedCommand {
  /** The words after `lightkeeper`, up to a comment, pipe or redirection. */
  readonly words: readonly string[];
  readonly text: string;
  readonly line: number;
}

// `lightkeeper …`, `npx lightkeeper …` or `node bin/lightkeeper.mjs …` at the start of a code span
// or of a line in a fenced block (after a `$ ` prompt or `time`); not `lightkeeper.dev/…`, not
// `[lightkeeper]`, and not output that merely contains the word.
const invocation = /^(?:\$\s+)?(?:time\s+)?(?:npx\s+|node\s+bin\/lightkeeper\.mjs\s+|lightkeeper\s+)/;

function commandWords(rest: string): string[] {
  const words: string[] = [];
  let depth = 0;
  for (const raw of rest.split(/\s+/).filter(Boolean)) {
    if (raw.startsWith('#') && depth === 0) break;
    if (depth === 0 && /^(\||>|>>|2>|&&|;|\))/.test(raw)) break;
    const word = raw.replace(/^\[+/, '').replace(/\]+$/, '');
    depth += (raw.match(/\[/g)?.length ?? 0) - (raw.match(/\]/g)?.length ?? 0);
    if (word !== '' && word !== '|') words.push(word);
  }
  return words;
}

/** Every lightkeeper command line quoted in a code span or a fenced block. */
export function quotedCommands(markdown: string): QuotedCommand[] {
  const commands: QuotedCommand[] = [];
  for (const piece of pieces(markdown)) {
    if (piece.kind === 'prose') continue;
    const text = piece.text.trim();
    const m = invocation.exec(text);
    if (!m) continue;
    let rest = text.slice(m[0].length);
    if (/^npx\s+$/.test(m[0].replace(/^\$\s+/, '').replace(/^time\s+/, ''))) {
      if (!rest.startsWith('lightkeeper ') && rest !== 'lightkeeper') continue;
      rest = rest.slice('lightkeeper'.length);
    }
    commands.push({ words: commandWords(rest), text, line: piece.line });
  }
  return commands;
}
