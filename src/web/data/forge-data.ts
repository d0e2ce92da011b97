/**
 * The code forge's data (WebArena's gitlab in miniature): users, projects with stars, members and
 * roles, issues with labels, merge requests and a few files. The logged-in user is `me`. Generated
 * from the seed.
 */
import type { RandomSource } from '../interface.ts';
import { between, distinct, userName } from './words.ts';

export const LABELS = ['bug', 'feature', 'docs', 'ui', 'performance'];
export const ROLES = ['Guest', 'Reporter', 'Developer', 'Maintainer', 'Owner'];
export const VISIBILITIES = ['private', 'internal', 'public'];

const NAME_A = ['ledger', 'pixel', 'cargo', 'signal', 'atlas', 'harbor', 'quill', 'ember', 'orbit', 'tundra', 'lumen', 'relay'];
const NAME_B = ['api', 'cli', 'ui', 'sync', 'kit', 'docs', 'core', 'bot'];
const ISSUE_VERBS = ['Crash when', 'Add option for', 'Document', 'Slow response in', 'Wrong colour in', 'Support', 'Refactor', 'Flaky test in'];
const ISSUE_OBJECTS = ['login page', 'export to CSV', 'dark mode', 'search results', 'settings dialog', 'file upload', 'webhooks', 'the release script', 'pagination', 'error messages'];

export interface ForgeIssue {
  number: number;
  title: string;
  state: 'opened' | 'closed';
  labels: string[];
  author: string;
}

export interface MergeRequest {
  number: number;
  title: string;
  state: 'opened' | 'merged' | 'closed';
  author: string;
}

export interface ForgeProject {
  /** Owner namespace (a user name). */
  namespace: string;
  name: string;
  description: string;
  visibility: string;
  stars: number;
  members: { user: string; role: string }[];
  issues: ForgeIssue[];
  mergeRequests: MergeRequest[];
  /** path → content. */
  files: Record<string, string>;
}

export interface ForgeData {
  users: string[];
  me: string;
  projects: ForgeProject[];
  /** Projects (namespace/name) the logged-in user starred. */
  starred: string[];
  /** A project path that does not exist (for unachievable tasks). */
  absentProject: string;
}

/** "namespace/name". */
export const projectPath = (p: ForgeProject): string => `${p.namespace}/${p.name}`;

/** Generate the forge for a seed: 12 users, 8 projects. */
export function generateForge(rng: RandomSource): ForgeData {
  const users = distinct(12, () => userName(rng));
  const me = users[0]!;
  const names = distinct(9, () => `${rng.pick(NAME_A)}-${rng.pick(NAME_B)}`);
  const projects: ForgeProject[] = names.slice(0, 8).map((name, i) => {
    const namespace = i < 3 ? me : rng.pick(users.slice(1));
    const members = distinct(between(rng, 2, 4), () => rng.pick(users.slice(1)));
    const titles = distinct(between(rng, 5, 12), () => `${rng.pick(ISSUE_VERBS)} ${rng.pick(ISSUE_OBJECTS)}`);
    const version = `${between(rng, 0, 3)}.${between(rng, 0, 12)}.${between(rng, 0, 9)}`;
    return {
      namespace, name, description: `The ${name.replace('-', ' ')} project.`, visibility: rng.pick(VISIBILITIES), stars: between(rng, 0, 400),
      members: [{ user: namespace, role: 'Owner' }, ...members.filter((u) => u !== namespace).map((user) => ({ user, role: rng.pick(ROLES.slice(0, 4)) }))],
      issues: titles.map((title, n) => ({ number: n + 1, title, state: rng.int(3) === 0 ? 'closed' : 'opened', labels: distinct(rng.int(3), () => rng.pick(LABELS)), author: rng.pick(users) })),
      mergeRequests: Array.from({ length: between(rng, 2, 6) }, (_, n) => ({ number: n + 1, title: `Fix ${rng.pick(ISSUE_OBJECTS)}`, state: rng.pick(['opened', 'merged', 'closed'] as const), author: rng.pick(users) })),
      files: {
        'README.md': `# ${name}\n\nThe ${name.replace('-', ' ')} project.`,
        'package.json': JSON.stringify({ name, version, license: rng.pick(['MIT', 'Apache-2.0', 'GPL-3.0']) }, null, 2),
        'src/index.ts': `export const name = '${name}';`,
      },
    };
  });
  return { users, me, projects, starred: [], absentProject: `${rng.pick(users)}/${names[8]}` };
}
