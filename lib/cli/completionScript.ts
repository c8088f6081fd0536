import type { Command } from 'commander';

/** A command as completion sees it: its words, its options and the commands below it. */
export interface CompletionNode {
  name: string;
  aliases: string[];
  description: string;
  options: string[];
  commands: CompletionNode[];
}

export type Shell = 'bash' | 'zsh' | 'fish';

/** The completion tree of a commander program (help commands left out). */
export function completionTree(command: Command): CompletionNode {
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description().split('\n')[0] ?? '',
    options: command.options
      .flatMap((o) => [o.short, o.long].filter((f): f is string => !!f))
      .concat('--help'),
    commands: command.commands.filter((c) => c.name() !== 'help').map(completionTree),
  };
}

/** Every command path below the root, with what may follow it: `create gittrack` → its options. */
function paths(node: CompletionNode, prefix: string[] = []): Array<{ path: string[]; words: string[] }> {
  const here = {
    path: prefix,
    words: [...node.commands.flatMap((c) => [c.name, ...c.aliases]), ...node.options],
  };
  return [
    here,
    ...node.commands.flatMap((c) => [c.name, ...c.aliases].flatMap((n) => paths(c, [...prefix, n]))),
  ];
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function bash(root: CompletionNode): string {
  const cases = paths(root)
    .map(({ path, words }) => `    ${quote(path.join(' '))}) words=${quote(words.join(' '))} ;;`)
    .join('\n');
  return `# bash completion for ${root.name}: source <(${root.name} completion bash)
_${root.name}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" next words i w
  # The command path: each word that names a command below the path so far.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    if _${root.name}_words "$next" >/dev/null; then cmdpath="$next"; fi
  done
  words="$(_${root.name}_words "$cmdpath")"
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
_${root.name}_words() {
  local words
  case "$1" in
${cases}
    *) return 1 ;;
  esac
  echo "$words"
}
complete -o default -F _${root.name}_complete ${root.name}
`;
}

function zsh(root: CompletionNode): string {
  const cases = paths(root)
    .map(({ path, words }) => `    ${quote(path.join(' '))}) reply=(${words.map(quote).join(' ')}) ;;`)
    .join('\n');
  return `#compdef ${root.name}
# zsh completion for ${root.name}: source <(${root.name} completion zsh), or save it as _${root.name} in $fpath
_${root.name}_words() {
  case "$1" in
${cases}
    *) return 1 ;;
  esac
}
_${root.name}() {
  # Not "path": in zsh that is $PATH.
  local cmdpath="" next w
  local -a reply
  for w in \${words[2,CURRENT-1]}; do
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    if _${root.name}_words "$next"; then cmdpath="$next"; fi
  done
  _${root.name}_words "$cmdpath"
  compadd -- $reply
}
compdef _${root.name} ${root.name}
`;
}

function fish(root: CompletionNode): string {
  const lines = [`# fish completion for ${root.name}: ${root.name} completion fish | source`];
  const walk = (node: CompletionNode, path: string[]) => {
    // Completions apply where exactly this command path has been typed.
    const condition =
      path.length === 0
        ? '__fish_use_subcommand'
        : `__fish_seen_subcommand_from ${path.at(-1)}; and not __fish_seen_subcommand_from ${
            node.commands.flatMap((c) => [c.name, ...c.aliases]).join(' ') || '__none__'
          }`;
    for (const c of node.commands)
      lines.push(
        `complete -c ${root.name} -f -n ${quote(condition)} -a ${quote(c.name)} -d ${quote(c.description)}`,
      );
    for (const o of node.options) {
      const flag = o.startsWith('--') ? `-l ${o.slice(2)}` : `-s ${o.slice(1)}`;
      lines.push(`complete -c ${root.name} -n ${quote(condition)} ${flag}`);
    }
    for (const c of node.commands) walk(c, [...path, c.name]);
  };
  walk(root, []);
  return `${lines.join('\n')}\n`;
}

/** A completion script for `shell`, generated from the program's own commands and options. */
export function completionScript(shell: Shell, root: CompletionNode): string {
  return { bash, zsh, fish }[shell](root);
}
