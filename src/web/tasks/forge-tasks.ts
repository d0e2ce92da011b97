/**
 * Task templates of the code forge (WebArena gitlab style): open-issue counts, merge request
 * authors, the most-starred project, a version from package.json (information); filtered issue
 * lists (navigation); stars, new issues, members and new projects (state); a project that does not
 * exist (N/A). Scripts come from the data.
 */
import { LABELS, projectPath, ROLES, type ForgeData, type ForgeProject } from '../data/forge-data.ts';
import type { OracleStep, WebTaskTemplate } from '../interface.ts';
import { filterIssues, starCount } from '../sites/forge.ts';
import { SITE_ORIGINS } from '../sites/site.ts';
import { answer, button, choose, click, combobox, done, fill, link, textbox } from './steps.ts';

type ForgeTemplate = WebTaskTemplate<ForgeData, ForgeData>;

/** From the dashboard to a project's overview through Explore. */
const openProject = (p: ForgeProject): OracleStep[] => [click(link('Explore projects')), click(link(projectPath(p)))];

const openIssues: ForgeTemplate = {
  id: 't30', site: 'forge', kind: 'information', intentTemplate: 'How many open issues does the project {project} have?',
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const n = filterIssues(p, 'opened', null, null).length;
    const steps = [...openProject(p), click(link('Issues'))];
    return { intent: `How many open issues does the project ${projectPath(p)} have?`, check: { kind: 'string_match', mustInclude: [String(n)] }, oracle: [...steps, answer(String(n))], wrong: [...steps, answer(String(p.issues.length === n ? n + 1 : p.issues.length))] };
  },
};

const mrAuthor: ForgeTemplate = {
  id: 't31', site: 'forge', kind: 'information', intentTemplate: 'Who opened merge request !{number} of {project}?',
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const mr = rng.pick(p.mergeRequests);
    const other = rng.pick(data.users.filter((u) => !u.includes(mr.author) && !mr.author.includes(u)));
    const steps = [...openProject(p), click(link('Merge requests'))];
    return { intent: `Who opened merge request !${mr.number} of ${projectPath(p)}?`, check: { kind: 'string_match', mustInclude: [mr.author] }, oracle: [...steps, answer(mr.author)], wrong: [...steps, answer(other)] };
  },
};

const mostStars: ForgeTemplate = {
  id: 't32', site: 'forge', kind: 'information', intentTemplate: 'Which project has the most stars?',
  instantiate(data) {
    const sorted = [...data.projects].sort((a, b) => starCount(data, b) - starCount(data, a));
    const steps = [click(link('Explore projects')), click(link('Most stars'))];
    const tie = starCount(data, sorted[0]!) === starCount(data, sorted[1]!);
    return {
      intent: 'Which project has the most stars?',
      check: { kind: 'string_match', mustInclude: tie ? [projectPath(sorted[0]!), projectPath(sorted[1]!)] : [projectPath(sorted[0]!)] },
      oracle: [...steps, answer(tie ? `${projectPath(sorted[0]!)} and ${projectPath(sorted[1]!)}` : projectPath(sorted[0]!))], wrong: [...steps, answer(projectPath(sorted.at(-1)!))],
    };
  },
};

const version: ForgeTemplate = {
  id: 't33', site: 'forge', kind: 'information', intentTemplate: 'Which version does package.json of {project} declare?',
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const v = (x: ForgeProject) => (JSON.parse(x.files['package.json']!) as { version: string }).version;
    const other = data.projects.map(v).find((x) => x !== v(p)) ?? `${v(p)}.1`;
    const steps = [...openProject(p), click(link('package.json'))];
    return { intent: `Which version does package.json of ${projectPath(p)} declare?`, check: { kind: 'string_match', mustInclude: [v(p)] }, oracle: [...steps, answer(v(p))], wrong: [...steps, answer(other)] };
  },
};

const closedLabelled: ForgeTemplate = {
  id: 't34', site: 'forge', kind: 'navigation', intentTemplate: "Show me the closed issues labelled '{label}' in {project}.",
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const label = rng.pick(LABELS);
    const show = (tab: string) => [...openProject(p), click(link('Issues')), ...(tab === 'Closed' ? [click({ role: 'link', name: `Closed ${filterIssues(p, 'closed', null, null).length}` })] : []), choose(combobox('Label'), label), click(button('Filter')), done()];
    return { intent: `Show me the closed issues labelled '${label}' in ${projectPath(p)}.`, check: { kind: 'url_match', url: `${SITE_ORIGINS.forge}/${projectPath(p)}/-/issues?state=closed&label=${label}` }, oracle: show('Closed'), wrong: show('Open') };
  },
};

const star: ForgeTemplate = {
  id: 't35', site: 'forge', kind: 'change', intentTemplate: 'Star the project {project}.',
  instantiate(data, rng) {
    const [p, other] = rng.shuffle(data.projects);
    const doStar = (x: ForgeProject) => [...openProject(x), click(button('Star')), done()];
    return { intent: `Star the project ${projectPath(p!)}.`, check: { kind: 'state', description: `${projectPath(p!)} is starred`, test: (s) => s.starred.includes(projectPath(p!)) }, oracle: doStar(p!), wrong: doStar(other!) };
  },
};

const newIssue: ForgeTemplate = {
  id: 't36', site: 'forge', kind: 'change', intentTemplate: "Open an issue in {project} titled '{title}' with the label {label}.",
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const [label, other] = rng.shuffle(LABELS);
    const title = rng.pick(['Update the contributing guide', 'Button text is cut off', 'Add a changelog', 'Timeout on large uploads']);
    const open = (l: string) => [...openProject(p), click(link('Issues')), click(link('New issue')), fill(textbox('Title'), title), choose(combobox('Label'), l!), click(button('Create issue')), done()];
    return {
      intent: `Open an issue in ${projectPath(p)} titled '${title}' with the label ${label}.`,
      check: { kind: 'state', description: `a new open issue '${title}' labelled ${label}`, test: (s) => s.projects.find((x) => projectPath(x) === projectPath(p))!.issues.some((i) => i.title === title && i.labels.includes(label!) && i.author === s.me) },
      oracle: open(label!), wrong: open(other!),
    };
  },
};

const addMember: ForgeTemplate = {
  id: 't37', site: 'forge', kind: 'change', intentTemplate: 'Add {user} to {project} as {role}.',
  instantiate(data, rng) {
    const p = rng.pick(data.projects);
    const user = rng.pick(data.users.filter((u) => !p.members.some((m) => m.user === u)));
    const [role, other] = rng.shuffle(ROLES.slice(0, 4));
    const add = (r: string) => [...openProject(p), click(link('Members')), fill(textbox('Username'), user), choose(combobox('Role'), r), click(button('Invite')), done()];
    return {
      intent: `Add ${user} to ${projectPath(p)} as ${role}.`,
      check: { kind: 'state', description: `${user} is a ${role} of ${projectPath(p)}`, test: (s) => s.projects.find((x) => projectPath(x) === projectPath(p))!.members.some((m) => m.user === user && m.role === role) },
      oracle: add(role!), wrong: add(other!),
    };
  },
};

const newProject: ForgeTemplate = {
  id: 't38', site: 'forge', kind: 'change', intentTemplate: "Create a public project named '{name}'.",
  instantiate(data, rng) {
    const name = rng.pick(['garden-planner', 'recipe-box', 'trip-journal', 'habit-tracker']);
    const create = (visibility: string) => [click(link('New project')), fill(textbox('Project name'), name), choose(combobox('Visibility'), visibility), click(button('Create project')), done()];
    return {
      intent: `Create a public project named '${name}'.`,
      check: { kind: 'state', description: `${data.me}/${name} exists and is public`, test: (s) => s.projects.some((x) => x.namespace === s.me && x.name === name && x.visibility === 'public') },
      oracle: create('Public'), wrong: create('Private'),
    };
  },
};

const absentProject: ForgeTemplate = {
  id: 't39', site: 'forge', kind: 'information', intentTemplate: 'How many open issues does the project {project that does not exist} have?',
  instantiate(data, rng) {
    return { intent: `How many open issues does the project ${data.absentProject} have?`, check: { kind: 'string_match', exact: 'N/A' }, unachievable: true, oracle: [click(link('Explore projects')), answer('N/A')], wrong: [click(link('Explore projects')), answer(String(rng.int(10)))] };
  },
};

export const FORGE_TEMPLATES: readonly ForgeTemplate[] = [openIssues, mrAuthor, mostStars, version, closedLabelled, star, newIssue, addMember, newProject, absentProject];
