/**
 * The forum (WebArena's reddit, a Postmill instance, in miniature): forum list, forums sorted by
 * hot / new / top with pagination, subscribe, posts with votes and comments, new posts, user pages.
 * State: the `ForumData` (votes, subscriptions, new posts and comments are added to it).
 */
import { postScore, type ForumData, type ForumPost } from '../data/forum-data.ts';
import { html, withQuery } from './html.ts';
import { field, layout, notFoundPage, page, pager, paginate, postButton, redirect, Router, selectField, SITE_ORIGINS, textField, type Site, type WebResponse } from './site.ts';

const NAME = 'Forum';
const NAV: [string, string][] = [['/', 'Forums'], ['/submit', 'Submit'], ['/subscriptions', 'Subscriptions']];
const PER_PAGE = 10;
/** The date new posts get (the forum's "today"). */
const TODAY = '2024-01-15';

/** Sort orders of a forum's posts (query `sort`): hot = score + 10 × comments; new = newest; top = score. */
export const FORUM_SORTS = ['hot', 'new', 'top'] as const;

/** The posts of a forum in the order the page lists them. */
export function sortPosts(data: ForumData, forum: string, sort: string | null): ForumPost[] {
  const posts = data.posts.filter((p) => p.forum === forum);
  const key = (p: ForumPost) => (sort === 'new' ? p.id : sort === 'top' ? postScore(data, p) : postScore(data, p) + 10 * p.comments.length);
  return posts.sort((a, b) => key(b) - key(a) || b.id - a.id);
}

export function createForum(data: ForumData): Site<ForumData> {
  let flash: string | null = null;
  const takeFlash = () => [flash, (flash = null)][0];
  const frame = (title: string, body: ReturnType<typeof html>, status: 200 | 404 = 200): WebResponse => page(`${title} – ${NAME}`, layout(NAME, NAV, title, body, takeFlash()), status);
  const notFound = (path: string) => notFoundPage(NAME, NAV, path);
  const postLink = (p: ForumPost) => `/f/${p.forum}/${p.id}`;
  const postItem = (p: ForumPost) => html`<article><h2><a href="${postLink(p)}">${p.title}</a></h2><p>${postScore(data, p)} points · by <a href="/u/${p.author}">${p.author}</a> · ${p.date} · <a href="${postLink(p)}">${p.comments.length} comments</a></p></article>`;

  const forumPage = (name: string, q: URLSearchParams, path: string) => {
    const forum = data.forums.find((f) => f.name === name);
    if (!forum) return notFound(path);
    const sort = FORUM_SORTS.includes(q.get('sort') as (typeof FORUM_SORTS)[number]) ? q.get('sort')! : 'hot';
    const { items, page: current, pages } = paginate(sortPosts(data, name, sort), q.get('page'), PER_PAGE);
    const subscribed = data.subscriptions.includes(name);
    return frame(`f/${name}`, html`<p>${forum.description} ${forum.subscribers + (subscribed ? 1 : 0)} subscribers.</p>
${postButton(`/f/${name}/subscribe`, subscribed ? 'Unsubscribe' : 'Subscribe')}
<nav aria-label="Sort">${FORUM_SORTS.map((s) => html` <a href="${withQuery(`/f/${name}`, { sort: s })}"${s === sort ? html` aria-current="page"` : ''}>${s[0]!.toUpperCase() + s.slice(1)}</a>`)}</nav>
${items.map(postItem)}${pager(`/f/${name}`, { sort }, current, pages)}`);
  };

  const postPage = (name: string, id: string, path: string) => {
    const p = data.posts.find((x) => x.forum === name && String(x.id) === id);
    if (!p) return notFound(path);
    const vote = data.votes[p.id] ?? 0;
    return frame(p.title, html`<p>Submitted by <a href="/u/${p.author}">${p.author}</a> in <a href="/f/${p.forum}">f/${p.forum}</a> on ${p.date}</p>
<p>${p.body}</p><p>${postScore(data, p)} points${vote ? ` (you voted ${vote > 0 ? 'up' : 'down'})` : ''}</p>
${postButton(`${postLink(p)}/vote`, vote === 1 ? 'Retract upvote' : 'Upvote', { direction: 'up' })}${postButton(`${postLink(p)}/vote`, vote === -1 ? 'Retract downvote' : 'Downvote', { direction: 'down' })}
<section aria-label="Comments"><h2>${p.comments.length} comments</h2><ul>${p.comments.map((c) => html`<li><a href="/u/${c.author}">${c.author}</a>: ${c.text}</li>`)}</ul>
<form method="post" action="${postLink(p)}/comment"><label>Comment <textarea name="text" required></textarea></label> <button type="submit">Post comment</button></form></section>`);
  };

  const router = new Router()
    .add('GET', /^\/$/, () => frame('Forums', html`<ul>${data.forums.map((f) => html`<li><a href="/f/${f.name}">f/${f.name}</a> – ${f.description}</li>`)}</ul>`))
    .add('GET', /^\/subscriptions$/, () => frame('Subscriptions', data.subscriptions.length === 0 ? html`<p>You are not subscribed to any forum.</p>` : html`<ul>${data.subscriptions.map((s) => html`<li><a href="/f/${s}">f/${s}</a></li>`)}</ul>`))
    .add('GET', /^\/f\/([a-z]+)$/, ([name], r) => forumPage(name!, r.query, r.path))
    .add('POST', /^\/f\/([a-z]+)\/subscribe$/, ([name], r) => {
      if (!data.forums.some((f) => f.name === name)) return notFound(r.path);
      const on = data.subscriptions.includes(name!);
      data.subscriptions = on ? data.subscriptions.filter((s) => s !== name) : [...data.subscriptions, name!];
      flash = on ? `You unsubscribed from f/${name}.` : `You subscribed to f/${name}.`;
      return redirect(`/f/${name}`);
    })
    .add('GET', /^\/f\/([a-z]+)\/(\d+)$/, ([name, id], r) => postPage(name!, id!, r.path))
    .add('POST', /^\/f\/([a-z]+)\/(\d+)\/vote$/, ([name, id], r) => {
      const p = data.posts.find((x) => x.forum === name && String(x.id) === id);
      if (!p) return notFound(r.path);
      const dir = field(r.form, 'direction') === 'down' ? -1 : 1;
      if (data.votes[p.id] === dir) delete data.votes[p.id];
      else data.votes[p.id] = dir;
      return redirect(postLink(p));
    })
    .add('POST', /^\/f\/([a-z]+)\/(\d+)\/comment$/, ([name, id], r) => {
      const p = data.posts.find((x) => x.forum === name && String(x.id) === id);
      if (!p) return notFound(r.path);
      const text = field(r.form, 'text');
      if (text) {
        p.comments.push({ author: data.me, text });
        flash = 'Your comment was posted.';
      }
      return redirect(postLink(p));
    })
    .add('GET', /^\/submit$/, (_, r) => frame('Create a post', html`<form method="post" action="/submit">${selectField('forum', 'Forum', data.forums.map((f) => [f.name, `f/${f.name}`]), r.query.get('forum'))}
${textField('title', 'Title')} <label>Body <textarea name="body"></textarea></label> <button type="submit">Create post</button></form>`))
    .add('POST', /^\/submit$/, (_, r) => {
      const forum = field(r.form, 'forum');
      const title = field(r.form, 'title');
      if (!data.forums.some((f) => f.name === forum) || !title) {
        flash = 'A post needs a forum and a title.';
        return redirect('/submit');
      }
      const post: ForumPost = { id: data.posts.length + 1, forum, title, body: field(r.form, 'body'), author: data.me, baseScore: 1, date: TODAY, comments: [] };
      data.posts.push(post);
      return redirect(postLink(post));
    })
    .add('GET', /^\/u\/([\w-]+)$/, ([user]) => {
      const posts = data.posts.filter((p) => p.author === user).reverse();
      return frame(`u/${user}`, html`<p>${posts.length} posts</p>${posts.map(postItem)}`);
    });
  return { id: 'forum', origin: SITE_ORIGINS.forum, state: data, handle: (request) => router.handle(request, () => notFound(request.path)) };
}
