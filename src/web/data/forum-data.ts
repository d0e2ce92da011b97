/**
 * The forum's data (WebArena's reddit, a Postmill instance, in miniature): forums, posts with
 * scores and comments, users; the logged-in user's votes and subscriptions start empty. Generated
 * from the seed.
 */
import type { RandomSource } from '../interface.ts';
import { between, distinct, isoDate, userName } from './words.ts';

const TOPICS: Record<string, string[]> = {
  books: ['fantasy series', 'poetry collections', 'library apps', 'audiobooks', 'reading habits', 'book clubs'],
  cooking: ['sourdough starters', 'cast iron pans', 'weeknight curries', 'knife sharpening', 'meal prep', 'fermented hot sauce'],
  gaming: ['retro consoles', 'speedruns', 'board game nights', 'controller repairs', 'indie puzzlers', 'co-op campaigns'],
  gardening: ['tomato blight', 'raised beds', 'composting', 'houseplant pests', 'seed saving', 'winter pruning'],
  movies: ['film scores', 'director commentaries', 'silent films', 'cinema etiquette', 'documentaries', 'remakes'],
  travel: ['night trains', 'packing lists', 'hostel stories', 'travel insurance', 'city passes', 'slow travel'],
};
const OPENERS = ['Looking for advice on', 'My thoughts on', 'Beginner question about', 'Unpopular opinion on', 'Show us your', 'Weekly thread:'];
const COMMENTS = ['Great point, thanks!', 'I disagree, but interesting.', 'Same here.', 'Do you have a source?', 'This helped me a lot.', 'Came here to say this.'];
/** Forum names that do not exist (for unachievable tasks). */
const ABSENT_FORUMS = ['knitting', 'astronomy', 'cycling', 'chess'];

export interface ForumComment {
  author: string;
  text: string;
}

export interface ForumPost {
  id: number;
  forum: string;
  title: string;
  body: string;
  author: string;
  /** Votes from others; the shown score adds the logged-in user's vote. */
  baseScore: number;
  /** YYYY-MM-DD; newer posts have higher ids. */
  date: string;
  comments: ForumComment[];
}

export interface ForumData {
  forums: { name: string; description: string; subscribers: number }[];
  posts: ForumPost[];
  /** The logged-in user. */
  me: string;
  /** The logged-in user's votes by post id: 1 up, -1 down. */
  votes: Record<number, 1 | -1>;
  subscriptions: string[];
  absentForum: string;
}

/** Generate the forum for a seed: 6 forums × 12 posts. */
export function generateForum(rng: RandomSource): ForumData {
  const users = distinct(12, () => userName(rng));
  const forums = Object.keys(TOPICS).map((name) => ({ name, description: `All about ${name}.`, subscribers: between(rng, 50, 5000) }));
  const posts: ForumPost[] = [];
  for (const forum of forums) {
    const titles = distinct(12, () => `${rng.pick(OPENERS)} ${rng.pick(TOPICS[forum.name]!)}`);
    for (const title of titles) {
      posts.push({
        id: 0, forum: forum.name, title, body: `${title}. What do you all think?`, author: rng.pick(users), baseScore: between(rng, -3, 150),
        date: isoDate(rng, 2023), comments: Array.from({ length: rng.int(7) }, () => ({ author: rng.pick(users), text: rng.pick(COMMENTS) })),
      });
    }
  }
  posts.sort((a, b) => a.date.localeCompare(b.date));
  posts.forEach((p, i) => (p.id = i + 1));
  return { forums, posts, me: users[0]!, votes: {}, subscriptions: [], absentForum: rng.pick(ABSENT_FORUMS) };
}

/** A post's shown score: others' votes plus the logged-in user's. */
export function postScore(data: ForumData, post: ForumPost): number {
  return post.baseScore + (data.votes[post.id] ?? 0);
}
