import { Command, Help } from 'commander';

/**
 * One top-level command: what `lightkeeper --help` lists, and how to load the real command.
 * Each command module (and what it imports: the Kubernetes client, isomorphic-git, the AWS SDK…)
 * is loaded only when that command runs, so `--help` loads none of them. `term` and `description`
 * must match the loaded command's (test/unit/cli/cliCommands.test.ts compares them).
 */
export interface CliCommand {
  readonly name: string;
  /** How `--help` lists it: the name, `[options]` when it has any, its arguments. */
  readonly term: string;
  readonly description: string;
  readonly load: () => Promise<Command>;
}

export const cliCommands: readonly CliCommand[] = [
  {
    name: 'cluster',
    term: 'cluster',
    description: 'a local control plane: etcd, kube-apiserver, garbage collector',
    load: async () => (await import('./clusterCommand')).clusterCommand(),
  },
  {
    name: 'create',
    term: 'create',
    description: 'create a GitTrack or ClusterGitTrack, or print it with --export',
    load: async () => (await import('./createCommand')).createCommand(),
  },
  {
    name: 'get',
    term: 'get [options] [type] [name]',
    description: 'list tracks: ready, reason, commit, suspended, age and message',
    load: async () => (await import('./getCommand')).getCommand(),
  },
  {
    name: 'events',
    term: 'events [options] [track]',
    description: "the Events of tracks' reconciles, newest last: every track in scope, or one",
    load: async () => (await import('./eventsCommand')).eventsCommand(),
  },
  {
    name: 'reconcile',
    term: 'reconcile [options] <track>',
    description: "apply a track's commit now: gittrack/NAME -n NS, or clustergittrack/NAME",
    load: async () => (await import('./reconcileCommand')).reconcileCommand(),
  },
  {
    name: 'replay',
    term: 'replay [options] <track>',
    description:
      'reconcile a track through the reconcile Lambda function (RequestResponse), e.g. an older commit',
    load: async () => (await import('./replayCommand')).replayCommand(),
  },
  {
    name: 'unpin',
    term: 'unpin [options] <track>',
    description:
      'let a pinned track follow its reference again: gittrack/NAME -n NS, or clustergittrack/NAME',
    load: async () => (await import('./unpinCommand')).unpinCommand(),
  },
  {
    name: 'suspend',
    term: 'suspend',
    description: 'stop a track following its reference: sweeps and pushes leave it alone until resumed',
    load: async () => (await import('./suspendCommand')).suspendCommand(),
  },
  {
    name: 'resume',
    term: 'resume',
    description: 'let a suspended track follow its reference again',
    load: async () => (await import('./resumeCommand')).resumeCommand(),
  },
  {
    name: 'push',
    term: 'push [options] [repo-dir]',
    description: "deliver a signed GitHub push webhook for a local repository's current HEAD",
    load: async () => (await import('./pushCommand')).pushCommand(),
  },
  {
    name: 'start',
    term: 'start [options]',
    description:
      'run lightkeeper locally with a sample repository, serverless-offline and one push, until Ctrl-C',
    load: async () => (await import('./startCommand')).startCommand(),
  },
  {
    name: 'audit',
    term: 'audit [options]',
    description:
      'find owner references the garbage collector treats as absent or invalid (the Faros incident); exit 1 when any',
    load: async () => (await import('./auditCommand')).auditCommand(),
  },
  {
    name: 'tree',
    term: 'tree [options] <track>',
    description: 'show a track → tracking objects → children: gittrack/NAME -n NS, or clustergittrack/NAME',
    load: async () => (await import('./treeCommand')).treeCommand(),
  },
  {
    name: 'diff',
    term: 'diff [options] <track>',
    description:
      'show what applying a commit or a local tree would change: gittrack/NAME -n NS, or clustergittrack/NAME',
    load: async () => (await import('./diffCommand')).diffCommand(),
  },
  {
    name: 'migrate',
    term: 'migrate',
    description: 'take over objects managed by another GitOps controller',
    load: async () => (await import('./migrateCommand')).migrateCommand(),
  },
  {
    name: 'completion',
    term: 'completion <shell>',
    description: 'print a shell completion script: source <(lightkeeper completion bash)',
    load: async () => (await import('./completionCommand')).completionCommand(cliCommands),
  },
];

/**
 * The command a command line runs, if any: its first operand (the only global option, --debug,
 * takes no value), or the one `help COMMAND` asks about.
 */
export function invokedCommand(args: readonly string[]): CliCommand | undefined {
  const operands = args.filter((a) => !a.startsWith('-'));
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  return cliCommands.find((c) => c.name === name);
}

/** What stands in for a command that is not loaded: enough for the top-level help and suggestions. */
const placeholders = new WeakMap<Command, CliCommand>();

function placeholder(entry: CliCommand): Command {
  const command = new Command(entry.name).description(entry.description);
  placeholders.set(command, entry);
  return command;
}

/** Adds every command to `program`: the invoked one loaded, the others as placeholders. */
export async function addCliCommands(program: Command, args: readonly string[]): Promise<void> {
  const invoked = invokedCommand(args);
  for (const entry of cliCommands)
    program.addCommand(entry === invoked ? await entry.load() : placeholder(entry));
  program.configureHelp({
    subcommandTerm(this: Help, command: Command) {
      return placeholders.get(command)?.term ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
}
