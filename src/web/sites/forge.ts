/**
 * The code forge (WebArena's gitlab in miniature): dashboard, explore with sorting, project pages
 * with stars and files, issues filtered by state / label / search with pagination, new issues,
 * merge requests, members (invite with a role), new projects. State: the `ForgeData`.
 */
import { LABELS, projectPath, ROLES, VISIBILITIES, type ForgeData, type ForgeIssue, type ForgeProject } from '../data/forge-data.ts';
import { html, withQuery } from './html.ts';
import { field, layout, notFoundPage, page, pager, paginate, postButton, redirect, Router, selectField, SITE_ORIGINS, table, textField, type Site, type WebResponse } from './site.ts';

const NAME = 'Forge';
const NAV: [string, string][] = [['/', 'Your projects'], ['/explore', 'Explore projects'], ['/projects/new', 'New project']];
const PER_PAGE = 5;
const P = '/([\\w.-]+)/([\\w.-]+)';

/** Issues of a project as listed: state `opened` | `closed` | `all`, optional label and title search; newest first. */
export function filterIssues(project: ForgeProject, state: string, label: string | null, search: string | null): ForgeIssue[] {
  return project.issues
    .filter((i) => (state === 'all' || i.state === state) && (!label || i.labels.includes(label)) && (!search || i.title.toLowerCase().includes(search.toLowerCase())))
    .reverse();
}

/** Shown star count: others' stars plus the user's. */
export function starCount(data: ForgeData, p: ForgeProject): number {
  return p.stars + (data.starred.includes(projectPath(p)) ? 1 : 0);
}

export function createForge(data: ForgeData): Site<ForgeData> {
  let flash: string | null = null;
  const takeFlash = () => [flash, (flash = null)][0];
  const frame = (title: string, body: ReturnType<typeof html>, status: 200 | 404 = 200): WebResponse => page(`${title} – ${NAME}`, layout(NAME, NAV, title, body, takeFlash()), status);
  const notFound = (path: string) => notFoundPage(NAME, NAV, path);
  const find = (ns: string, name: string) => data.projects.find((p) => p.namespace === ns && p.name === name);
  const base = (p: ForgeProject) => `/${projectPath(p)}`;
  const projectNav = (p: ForgeProject) => html`<nav aria-label="Project"><a href="${base(p)}">Project overview</a> <a href="${base(p)}/-/issues">Issues</a> <a href="${base(p)}/-/merge_requests">Merge requests</a> <a href="${base(p)}/-/project_members">Members</a></nav>`;
  const projectList = (list: ForgeProject[]) => html`<ul>${list.map((p) => html`<li><a href="${base(p)}">${projectPath(p)}</a> – ${p.description} ★ ${starCount(data, p)}</li>`)}</ul>`;
  const withProject = (handler: (p: ForgeProject, q: URLSearchParams, form: URLSearchParams, rest: string[]) => WebResponse) => ([ns, name, ...rest]: string[], r: { query: URLSearchParams; form: URLSearchParams; path: string }) => {
    const p = find(ns!, name!);
    return p ? handler(p, r.query, r.form, rest) : notFound(r.path);
  };

  const overview = (p: ForgeProject) => frame(projectPath(p), html`${projectNav(p)}<p>${p.description}</p><p>Visibility: ${p.visibility}</p><p>Stars: ${starCount(data, p)}</p>
${postButton(`${base(p)}/star`, data.starred.includes(projectPath(p)) ? 'Unstar' : 'Star')}
<section aria-label="Files"><h2>Files</h2><ul>${Object.keys(p.files).map((f) => html`<li><a href="${base(p)}/-/blob/main/${f}">${f}</a></li>`)}</ul></section>`);

  const issues = (p: ForgeProject, q: URLSearchParams) => {
    const state = ['opened', 'closed', 'all'].includes(q.get('state') ?? '') ? q.get('state')! : 'opened';
    const label = LABELS.includes(q.get('label') ?? '') ? q.get('label') : null;
    const search = (q.get('search') ?? '').trim() || null;
    const list = filterIssues(p, state, label, search);
    const { items, page: current, pages } = paginate(list, q.get('page'), PER_PAGE);
    const count = (s: string) => filterIssues(p, s, label, search).length;
    const tab = (s: string, text: string) => html` <a href="${withQuery(`${base(p)}/-/issues`, { state: s, label, search })}"${s === state ? html` aria-current="page"` : ''}>${text} ${count(s)}</a>`;
    return frame(`Issues · ${projectPath(p)}`, html`${projectNav(p)}<nav aria-label="Issue states">${tab('opened', 'Open')}${tab('closed', 'Closed')}${tab('all', 'All')}</nav>
<form method="get" action="${base(p)}/-/issues"><input type="hidden" name="state" value="${state}">${textField('search', 'Search issues', search ?? '', 'search')} ${selectField('label', 'Label', [['', 'Any label'], ...LABELS.map((l): [string, string] => [l, l])], label ?? '')} <button type="submit">Filter</button></form>
<p><a href="${base(p)}/-/issues/new">New issue</a></p>
${list.length === 0 ? html`<p>No issues match.</p>` : html`<ul>${items.map((i) => html`<li><a href="${base(p)}/-/issues/${i.number}">${i.title}</a> #${i.number} · ${i.state} · ${i.labels.join(', ') || 'no labels'} · by ${i.author}</li>`)}</ul>`}
${pager(`${base(p)}/-/issues`, { state, label, search }, current, pages)}`);
  };

  const mergeRequests = (p: ForgeProject, q: URLSearchParams) => {
    const state = ['opened', 'merged', 'closed', 'all'].includes(q.get('state') ?? '') ? q.get('state')! : 'all';
    const list = p.mergeRequests.filter((m) => state === 'all' || m.state === state).reverse();
    return frame(`Merge requests · ${projectPath(p)}`, html`${projectNav(p)}${table('Merge requests', ['MR', 'Title', 'State', 'Author'], list.map((m) => [`!${m.number}`, m.title, m.state, m.author]))}`);
  };

  const members = (p: ForgeProject) => frame(`Members · ${projectPath(p)}`, html`${projectNav(p)}${table('Members', ['User', 'Role'], p.members.map((m) => [m.user, m.role]))}
<form method="post" action="${base(p)}/-/project_members">${textField('user', 'Username')} ${selectField('role', 'Role', ROLES.slice(0, 4).map((r) => [r, r]), 'Guest')} <button type="submit">Invite</button></form>`);

  const router = new Router()
    .add('GET', /^\/$/, () => frame('Your projects', projectList(data.projects.filter((p) => p.members.some((m) => m.user === data.me)))))
    .add('GET', /^\/explore$/, (_, r) => {
      const sort = r.query.get('sort') === 'stars' ? 'stars' : 'name';
      const list = [...data.projects].sort((a, b) => (sort === 'stars' ? starCount(data, b) - starCount(data, a) : projectPath(a).localeCompare(projectPath(b))));
      return frame('Explore projects', html`<nav aria-label="Sort"><a href="/explore?sort=name">Name</a> <a href="/explore?sort=stars">Most stars</a></nav>${projectList(list)}`);
    })
    .add('GET', /^\/projects\/new$/, () => frame('New project', html`<form method="post" action="/projects/new">${textField('name', 'Project name')} ${textField('description', 'Description')} ${selectField('visibility', 'Visibility', VISIBILITIES.map((v) => [v, v[0]!.toUpperCase() + v.slice(1)]), 'private')} <button type="submit">Create project</button></form>`))
    .add('POST', /^\/projects\/new$/, (_, r) => {
      const name = field(r.form, 'name').toLowerCase().replace(/[^\w.-]+/g, '-');
      if (!name || find(data.me, name)) {
        flash = name ? `You already have a project named ${name}.` : 'A project needs a name.';
        return redirect('/projects/new');
      }
      const visibility = VISIBILITIES.includes(field(r.form, 'visibility')) ? field(r.form, 'visibility') : 'private';
      data.projects.push({ namespace: data.me, name, description: field(r.form, 'description'), visibility, stars: 0, members: [{ user: data.me, role: 'Owner' }], issues: [], mergeRequests: [], files: { 'README.md': `# ${name}` } });
      flash = `Project ${data.me}/${name} was created.`;
      return redirect(`/${data.me}/${name}`);
    })
    .add('GET', new RegExp(`^${P}$`), withProject((p) => overview(p)))
    .add('POST', new RegExp(`^${P}/star$`), withProject((p) => {
      const path = projectPath(p);
      data.starred = data.starred.includes(path) ? data.starred.filter((s) => s !== path) : [...data.starred, path];
      return redirect(base(p));
    }))
    .add('GET', new RegExp(`^${P}/-/issues$`), withProject((p, q) => issues(p, q)))
    .add('GET', new RegExp(`^${P}/-/issues/new$`), withProject((p) => frame(`New issue · ${projectPath(p)}`, html`${projectNav(p)}<form method="post" action="${base(p)}/-/issues">${textField('title', 'Title')} <label>Description <textarea name="description"></textarea></label> ${selectField('label', 'Label', [['', 'No label'], ...LABELS.map((l): [string, string] => [l, l])], '')} <button type="submit">Create issue</button></form>`)))
    .add('POST', new RegExp(`^${P}/-/issues$`), withProject((p, _q, form) => {
      const title = field(form, 'title');
      if (!title) {
        flash = 'An issue needs a title.';
        return redirect(`${base(p)}/-/issues/new`);
      }
      const label = LABELS.includes(field(form, 'label')) ? [field(form, 'label')] : [];
      const issue: ForgeIssue = { number: p.issues.length + 1, title, state: 'opened', labels: label, author: data.me };
      p.issues.push(issue);
      return redirect(`${base(p)}/-/issues/${issue.number}`);
    }))
    .add('GET', new RegExp(`^${P}/-/issues/(\\d+)$`), withProject((p, _q, _f, [n]) => {
      const i = p.issues.find((x) => String(x.number) === n);
      if (!i) return notFound(`${base(p)}/-/issues/${n}`);
      return frame(`${i.title} (#${i.number})`, html`${projectNav(p)}<p>State: ${i.state}</p><p>Labels: ${i.labels.join(', ') || 'none'}</p><p>Opened by ${i.author}</p>`);
    }))
    .add('GET', new RegExp(`^${P}/-/merge_requests$`), withProject((p, q) => mergeRequests(p, q)))
    .add('GET', new RegExp(`^${P}/-/project_members$`), withProject((p) => members(p)))
    .add('POST', new RegExp(`^${P}/-/project_members$`), withProject((p, _q, form) => {
      const user = field(form, 'user');
      const role = ROLES.includes(field(form, 'role')) ? field(form, 'role') : 'Guest';
      if (!data.users.includes(user)) flash = `There is no user named '${user}'.`;
      else if (p.members.some((m) => m.user === user)) flash = `${user} is already a member.`;
      else {
        p.members.push({ user, role });
        flash = `${user} was added as ${role}.`;
      }
      return redirect(`${base(p)}/-/project_members`);
    }))
    .add('GET', new RegExp(`^${P}/-/blob/main/(.+)$`), withProject((p, _q, _f, [path]) => {
      const content = p.files[path!];
      if (content === undefined) return notFound(`${base(p)}/-/blob/main/${path}`);
      return frame(`${path} · ${projectPath(p)}`, html`${projectNav(p)}<pre>${content}</pre>`);
    }));
  return { id: 'forge', origin: SITE_ORIGINS.forge, state: data, handle: (request) => router.handle(request, () => notFound(request.path)) };
}
