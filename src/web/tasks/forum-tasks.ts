/**
 * Task templates of the forum (WebArena reddit style): top post, comment counts, authors
 * (information); the newest posts of a forum (navigation); votes, subscriptions, new posts and
 * comments (state); a forum that does not exist (N/A). Scripts come from the data.
 */
import { postScore, type ForumData, type ForumPost } from '../data/forum-data.ts';
import type { OracleStep, RandomSource, WebTaskTemplate } from '../interface.ts';
import { sortPosts } from '../sites/forum.ts';
import { SITE_ORIGINS } from '../sites/site.ts';
import { answer, button, choose, click, combobox, done, fill, link, textbox } from './steps.ts';

type ForumTemplate = WebTaskTemplate<ForumData, ForumData>;
const PER_PAGE = 10;

/** Steps from the front page to a post (through the forum's hot list, paging when needed). */
function openPost(data: ForumData, post: ForumPost): OracleStep[] {
  const index = sortPosts(data, post.forum, 'hot').findIndex((p) => p.id === post.id);
  return [click(link(`f/${post.forum}`)), ...Array.from({ length: Math.floor(index / PER_PAGE) }, () => click(link('Next'))), click(link(post.title))];
}

/** A post whose title is unique on the whole site. */
function pickPost(data: ForumData, rng: RandomSource, ok: (p: ForumPost) => boolean = () => true): ForumPost {
  return rng.pick(data.posts.filter((p) => ok(p) && data.posts.filter((q) => q.title === p.title).length === 1));
}

const topPost: ForumTemplate = {
  id: 't21', site: 'forum', kind: 'information', intentTemplate: 'What is the title of the highest-scoring post in f/{forum}?',
  instantiate(data, rng) {
    const forums = data.forums.map((f) => f.name).filter((f) => {
      const top = sortPosts(data, f, 'top');
      return postScore(data, top[0]!) > postScore(data, top[1]!);
    });
    const forum = rng.pick(forums);
    const top = sortPosts(data, forum, 'top');
    const steps = [click(link(`f/${forum}`)), click(link('Top'))];
    return { intent: `What is the title of the highest-scoring post in f/${forum}?`, check: { kind: 'string_match', mustInclude: [top[0]!.title] }, oracle: [...steps, answer(top[0]!.title)], wrong: [...steps, answer(top[1]!.title)] };
  },
};

const commentCount: ForumTemplate = {
  id: 't22', site: 'forum', kind: 'information', intentTemplate: "How many comments does the post '{title}' in f/{forum} have?",
  instantiate(data, rng) {
    const post = pickPost(data, rng);
    const n = post.comments.length;
    return { intent: `How many comments does the post '${post.title}' in f/${post.forum} have?`, check: { kind: 'string_match', mustInclude: [String(n)] }, oracle: [...openPost(data, post), answer(String(n))], wrong: [...openPost(data, post), answer(String(n + 2))] };
  },
};

const author: ForumTemplate = {
  id: 't23', site: 'forum', kind: 'information', intentTemplate: "Who posted '{title}' in f/{forum}?",
  instantiate(data, rng) {
    const post = pickPost(data, rng);
    const other = rng.pick(data.posts.filter((p) => !p.author.includes(post.author) && !post.author.includes(p.author))).author;
    return { intent: `Who posted '${post.title}' in f/${post.forum}?`, check: { kind: 'string_match', mustInclude: [post.author] }, oracle: [...openPost(data, post), answer(post.author)], wrong: [...openPost(data, post), answer(other)] };
  },
};

const upvote: ForumTemplate = {
  id: 't24', site: 'forum', kind: 'change', intentTemplate: "Upvote the post '{title}' in f/{forum}.",
  instantiate(data, rng) {
    const post = pickPost(data, rng);
    return {
      intent: `Upvote the post '${post.title}' in f/${post.forum}.`,
      check: { kind: 'state', description: `post ${post.id} has the user's upvote`, test: (s) => s.votes[post.id] === 1 },
      oracle: [...openPost(data, post), click(button('Upvote')), done()], wrong: [...openPost(data, post), click(button('Downvote')), done()],
    };
  },
};

const subscribe: ForumTemplate = {
  id: 't25', site: 'forum', kind: 'change', intentTemplate: 'Subscribe to f/{forum}.',
  instantiate(data, rng) {
    const [forum, other] = rng.shuffle(data.forums.map((f) => f.name));
    const sub = (name: string) => [click(link(`f/${name}`)), click(button('Subscribe')), done()];
    return { intent: `Subscribe to f/${forum}.`, check: { kind: 'state', description: `subscribed to f/${forum}`, test: (s) => s.subscriptions.includes(forum!) }, oracle: sub(forum!), wrong: sub(other!) };
  },
};

const newPost: ForumTemplate = {
  id: 't26', site: 'forum', kind: 'change', intentTemplate: "Post in f/{forum} with the title '{title}' and the body '{body}'.",
  instantiate(data, rng) {
    const [forum, other] = rng.shuffle(data.forums.map((f) => f.name));
    const title = rng.pick(['Meetup this weekend?', 'Favourite beginner resources', 'What I learned this year', 'Ask me anything']);
    const body = rng.pick(['Reply below if you are in.', 'Please share your picks.', 'Long story short: practice.', 'I will answer tonight.']);
    const before = data.posts.length;
    const post = (name: string) => [click(link('Submit')), choose(combobox('Forum'), `f/${name}`), fill(textbox('Title'), title), fill(textbox('Body'), body), click(button('Create post')), done()];
    return {
      intent: `Post in f/${forum} with the title '${title}' and the body '${body}'.`,
      check: { kind: 'state', description: `a new post in f/${forum} titled '${title}'`, test: (s) => s.posts.slice(before).some((p) => p.forum === forum && p.title === title && p.body === body && p.author === s.me) },
      oracle: post(forum!), wrong: post(other!),
    };
  },
};

const reply: ForumTemplate = {
  id: 't27', site: 'forum', kind: 'change', intentTemplate: "Reply to the post '{title}' in f/{forum} with the comment '{text}'.",
  instantiate(data, rng) {
    const post = pickPost(data, rng);
    const other = pickPost(data, rng, (p) => p.id !== post.id);
    const text = rng.pick(['Thanks for sharing!', 'I had the same problem.', 'Count me in.', 'Could you post an update later?']);
    const comment = (p: ForumPost) => [...openPost(data, p), fill(textbox('Comment'), text), click(button('Post comment')), done()];
    return {
      intent: `Reply to the post '${post.title}' in f/${post.forum} with the comment '${text}'.`,
      check: { kind: 'state', description: `post ${post.id} has the comment`, test: (s) => s.posts.find((p) => p.id === post.id)!.comments.some((c) => c.author === s.me && c.text === text) },
      oracle: comment(post), wrong: comment(other),
    };
  },
};

const newest: ForumTemplate = {
  id: 't28', site: 'forum', kind: 'navigation', intentTemplate: 'Show me the newest posts in f/{forum}.',
  instantiate(data, rng) {
    const forum = rng.pick(data.forums).name;
    const show = (label: string) => [click(link(`f/${forum}`)), click(link(label)), done()];
    return { intent: `Show me the newest posts in f/${forum}.`, check: { kind: 'url_match', url: `${SITE_ORIGINS.forum}/f/${forum}?sort=new` }, oracle: show('New'), wrong: show('Top') };
  },
};

const absentForum: ForumTemplate = {
  id: 't29', site: 'forum', kind: 'information', intentTemplate: 'How many subscribers does f/{forum that does not exist} have?',
  instantiate(data, rng) {
    return { intent: `How many subscribers does f/${data.absentForum} have?`, check: { kind: 'string_match', exact: 'N/A' }, unachievable: true, oracle: [answer('N/A')], wrong: [answer(String(rng.pick(data.forums).subscribers))] };
  },
};

export const FORUM_TEMPLATES: readonly ForumTemplate[] = [topPost, commentCount, author, upvote, subscribe, newPost, reply, newest, absentForum];
