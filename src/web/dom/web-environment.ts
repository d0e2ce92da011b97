/**
 * A web task as an `Environment`: the task's site runs in memory for one episode; this module plays
 * the browser (one tab, URL, history, links and forms) on an injected Document, so the same code
 * drives jsdom in Node and a same-origin iframe in the page. Observation = goal, tab, last action's
 * error and the accessibility tree (BrowserGym's layout); reward 1 or 0 from the task's check when
 * the agent sends its answer (or at the step limit, via `stop()`). Uses no DOM globals.
 */
import { parseWebAction, type WebAction } from '../actions.ts';
import type { Environment, EnvironmentObservation, EnvironmentStep, PageSnapshot, RandomSourceFactory, WebTaskInstance } from '../interface.ts';
import { siteDefinition } from '../sites/registry.ts';
import type { Site, WebRequest } from '../sites/site.ts';
import { instantiate, parseWebTaskId, type WebTaskRef } from '../tasks/catalog.ts';
import { evaluate, NOT_ACHIEVABLE } from '../tasks/checks.ts';
import { snapshotPage } from './snapshot.ts';
import { WEB_TEXTS } from '../texts.ts';
import { assignBids, buildAxTree, type AxNode, type StyleReader } from './axtree.ts';
import { clickElement, fillElement, findElement, pressKey, selectOption, type ElementOutcome, type Navigation } from './page-actions.ts';

/** Where pages are drawn: a fresh, empty HTML document (jsdom in Node, an iframe's document in the page). */
export type DocumentFactory = () => Document;

export interface WebEnvironmentOptions {
  createDocument: DocumentFactory;
  /** The seeded random source (e.g. `(s) => new SeededRng(s)`). */
  rng: RandomSourceFactory;
  /** How computed style is read for the accessibility tree (Node: `inlineStyleOf`; default: the window's). */
  styleOf?: StyleReader;
}

/** A web observation: the fields, and `text` composed from them as the actor sees it. */
export interface WebObservation extends EnvironmentObservation {
  goal: string;
  url: string;
  title: string;
  /** Open tabs (one: the sites open no others). */
  tabs: { title: string; url: string }[];
  activeTab: number;
  axtree: string;
  lastActionError: string | null;
  /** The element the last action targeted (for highlighting in the page), or null. */
  targetBid: string | null;
  /** The answer sent to the user once the episode is over, else null. */
  answer: string | null;
  /** What the page shows now (for drawing it; never sent to a model). */
  page: PageSnapshot;
}

const MAX_REDIRECTS = 5;

function formatObservation(o: Omit<WebObservation, 'text' | 'page'>): string {
  const parts = [`# Goal\n${o.goal}`, `# Currently open tabs\n${o.tabs.map((t, i) => `Tab ${i}${i === o.activeTab ? ' (active tab)' : ''}\n  Title: ${t.title}\n  URL: ${t.url}`).join('\n')}`];
  if (o.lastActionError) parts.push(`# Error from the last action\n${o.lastActionError}`);
  if (o.answer !== null) parts.push(`# Message sent to the user (the episode is over)\n${o.answer}`);
  parts.push(`# Current page: accessibility tree\n${o.axtree}`);
  return parts.join('\n\n');
}

/** One web task (template + seed from its id); `reset(seed)` may pick another seed of the template. */
export class WebEnvironment implements Environment<WebObservation> {
  readonly kind = 'web' as const;
  readonly maxScore = 1;
  readonly texts = WEB_TEXTS;
  readonly task: WebTaskRef;
  private readonly doc: Document;
  private site: Site | null = null;
  private instance: WebTaskInstance | null = null;
  private url = '';
  private history: string[] = [];
  private historyIndex = -1;
  /** Pages loaded so far (a step that loads one draws no acted element). */
  private loads = 0;
  private nodes: AxNode[] = [];
  private answer: string | null = null;
  private done = false;
  private score = 0;

  /** @throws Error for a malformed or unknown task id */
  constructor(taskId: string, private readonly options: WebEnvironmentOptions) {
    this.task = parseWebTaskId(taskId);
    this.doc = options.createDocument();
  }

  /** The current instance (intent, check, oracle). @throws Error before `reset()` */
  get current(): WebTaskInstance {
    if (!this.instance) throw new Error('call reset() first');
    return this.instance;
  }

  /** The running site (its state is what state checks read). @throws Error before `reset()` */
  get siteState(): unknown {
    if (!this.site) throw new Error('call reset() first');
    return this.site.state;
  }

  /** The printed accessibility nodes of the current page. */
  get axNodes(): readonly AxNode[] {
    return this.nodes;
  }

  /** The current page as HTML (enough to redraw it in a replay). */
  pageHtml(): string {
    return this.doc.documentElement.outerHTML;
  }

  /** Start an episode on the template's instance for `seed` (default: the task id's seed): fresh
   * site data from the seed, the site's home page, no history. */
  async reset(seed: number = this.task.seed): Promise<WebObservation> {
    const { instance } = instantiate(this.task.template, seed, this.options.rng);
    const def = siteDefinition(this.task.template.site);
    this.site = def.create(def.generate(this.options.rng(seed)));
    this.instance = instance;
    this.history = [];
    this.historyIndex = -1;
    this.answer = null;
    this.done = false;
    this.score = 0;
    const error = this.navigate({ method: 'GET', url: '/', form: [] });
    return this.observe(error, null);
  }

  async step(actionText: string): Promise<EnvironmentStep<WebObservation>> {
    if (!this.site || this.done) throw new Error('the episode is over; call reset() to start another');
    const parsed = parseWebAction(actionText);
    if (!parsed.ok) return this.result(this.observe(parsed.error, null), 0);
    const loadsBefore = this.loads;
    const { error, targetBid } = this.apply(parsed.action);
    // After a navigation the acted element was on the previous page: the snapshot marks nothing.
    const drawnTarget = this.loads === loadsBefore ? targetBid : null;
    if (this.done) {
      const reward = this.judge();
      return this.result(this.observe(error, targetBid, drawnTarget), reward);
    }
    return this.result(this.observe(error, targetBid, drawnTarget), 0);
  }

  async stop(): Promise<EnvironmentStep<WebObservation>> {
    if (!this.site) throw new Error('call reset() first');
    if (this.done) return this.result(this.observe(null, null), 0);
    this.done = true;
    return this.result(this.observe(null, null), this.judge());
  }

  private judge(): number {
    const reward = evaluate(this.current.check, { answer: this.answer, finalUrl: this.url, state: this.site!.state }, this.current.unachievable);
    this.score = reward;
    return reward;
  }

  private result(observation: WebObservation, reward: number): EnvironmentStep<WebObservation> {
    return { observation, reward, score: this.score, done: this.done };
  }

  /** Do one parsed action; returns its error (null when it worked) and the element it aimed at. */
  private apply(action: WebAction): { error: string | null; targetBid: string | null } {
    switch (action.type) {
      case 'noop':
      case 'scroll':
        return { error: null, targetBid: null };
      case 'send_msg_to_user':
      case 'report_infeasible':
        this.answer = action.type === 'send_msg_to_user' ? action.text : NOT_ACHIEVABLE;
        this.done = true;
        return { error: null, targetBid: null };
      case 'goto':
        return { error: this.navigate({ method: 'GET', url: action.url, form: [] }), targetBid: null };
      case 'go_back':
      case 'go_forward': {
        const to = this.historyIndex + (action.type === 'go_back' ? -1 : 1);
        if (to < 0 || to >= this.history.length) return { error: `There is no page to go ${action.type === 'go_back' ? 'back' : 'forward'} to.`, targetBid: null };
        this.historyIndex = to;
        return { error: this.load({ method: 'GET', url: this.history[to]!, form: [] }, false), targetBid: null };
      }
      default: {
        const el = findElement(this.doc, action.bid);
        if ('error' in el) return { error: el.error, targetBid: null };
        const outcome: ElementOutcome =
          action.type === 'click' ? clickElement(el)
          : action.type === 'fill' ? fillElement(el, action.text)
          : action.type === 'select_option' ? selectOption(el, action.option)
          : action.type === 'press' ? pressKey(el, action.key)
          : null;
        if (outcome && 'error' in outcome) return { error: outcome.error, targetBid: action.bid };
        if (outcome && 'navigate' in outcome) return { error: this.navigate(outcome.navigate), targetBid: action.bid };
        return { error: null, targetBid: action.bid };
      }
    }
  }

  /** Follow a link or form to a new page (history grows); returns an error or null. */
  private navigate(nav: Navigation): string | null {
    return this.load(nav, true);
  }

  private load(nav: Navigation, push: boolean): string | null {
    const site = this.site!;
    let target: URL;
    try {
      target = new URL(nav.url === '' ? this.url : nav.url, this.url || `${site.origin}/`);
    } catch {
      return `Cannot open '${nav.url}': not a valid URL.`;
    }
    if (target.origin !== site.origin) return `Cannot open ${target.href}: this task's site is ${site.origin}/ and no other host answers.`;
    let request: WebRequest = {
      method: nav.method,
      path: target.pathname,
      query: nav.method === 'GET' && nav.form.length > 0 ? new URLSearchParams(nav.form) : target.searchParams,
      form: new URLSearchParams(nav.method === 'POST' ? nav.form : []),
    };
    for (let hops = 0; ; hops++) {
      let response: ReturnType<Site['handle']>;
      try {
        response = site.handle(request);
      } catch (error) {
        return `The site failed to answer ${site.origin}${request.path}: ${(error as Error).message}`;
      }
      if (response.kind === 'page') {
        const query = request.query.toString();
        this.url = `${site.origin}${request.path}${query ? `?${query}` : ''}`;
        this.doc.title = response.title;
        this.doc.body.innerHTML = response.body.value;
        assignBids(this.doc);
        this.loads++;
        if (push) {
          this.history = this.history.slice(0, this.historyIndex + 1).concat(this.url);
          this.historyIndex = this.history.length - 1;
        }
        return null;
      }
      if (hops >= MAX_REDIRECTS) return 'Too many redirects.';
      const next = new URL(response.location, `${site.origin}${request.path}`);
      request = { method: 'GET', path: next.pathname, query: next.searchParams, form: new URLSearchParams() };
    }
  }

  /** `drawnTarget`: the element the page snapshot marks (default `targetBid`; null when the action
   * loaded another page, whose elements are not the one acted on). */
  private observe(error: string | null, targetBid: string | null, drawnTarget: string | null = targetBid): WebObservation {
    const focused = this.doc.activeElement && this.doc.activeElement !== this.doc.body ? this.doc.activeElement : null;
    const tree = buildAxTree(this.doc, focused, this.url, this.options.styleOf);
    this.nodes = tree.nodes;
    const title = this.doc.title;
    const fields = {
      goal: this.current.intent, url: this.url, title, tabs: [{ title, url: this.url }], activeTab: 0, axtree: tree.text,
      lastActionError: error, targetBid, answer: this.done ? this.answer : null,
    };
    return { ...fields, text: formatObservation(fields), page: snapshotPage(this.doc, this.url, drawnTarget) };
  }
}
