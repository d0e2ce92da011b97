/**
 * Agent on a web task in Node (the site on jsdom, the real chat models against the mock LLM): the
 * oracle's actions score 1 with max score 1, every step's page is recorded (the acted element
 * named), the latest page is the one shown, the web defaults (10 steps, web guide) follow the kind,
 * and the exported trajectory keeps the pages through import.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import type { FakeServices } from '../../../test/support/ui/fake-services.ts';
import { testTab } from '../../../test/support/ui/run-test-support.ts';
import { webScript } from '../../../test/support/web-scripts.ts';
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { createJsdomDocument } from '../../web/node/jsdom-document.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { framedPage } from '../shared/format/web-frame-page.ts';
import { Agent, DEFAULT_MAX_STEPS } from './agent.svelte.ts';

let mock: MockLlm;
let services: FakeServices;

async function makeAgent(): Promise<Agent> {
  const tab = await testTab(mock.baseUrl);
  services = tab.services;
  const agent = new Agent(services, tab.shelf, tab.settings, tab.llm, () => () => undefined, createJsdomDocument);
  await agent.init();
  return agent;
}

beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['noop()'] });
});

afterEach(async () => {
  await mock.close();
});

describe('Agent on a web task', () => {
  it('switches to the web defaults and back, keeping what the user changed', async () => {
    const agent = await makeAgent();
    expect([agent.maxSteps, agent.guidingPrompt]).toEqual([DEFAULT_MAX_STEPS, DEFAULT_GUIDING_PROMPT]);
    agent.setKind('web');
    expect([agent.maxSteps, agent.guidingPrompt]).toEqual([10, WEB_DEFAULT_GUIDING_PROMPT]);
    agent.maxSteps = 7;
    agent.setKind('story');
    expect([agent.maxSteps, agent.guidingPrompt]).toEqual([7, DEFAULT_GUIDING_PROMPT]);
    agent.selectedId = '';
    await agent.run();
    expect(agent.error).toBe('Choose a story first.');
    agent.setKind('web');
    await agent.run();
    expect(agent.error).toBe('Choose a web task first.');
    agent.selectWebTask('web:shop/t999:1');
    await agent.run();
    expect(agent.error).toMatch(/unknown template "t999" in web:shop\/t999:1/);
    expect(mock.requests).toHaveLength(0);
  });

  it('plays web:shop/t1:1 with the oracle’s actions: reward 1 of 1, a page per step, exported and imported with its pages', async () => {
    const { goal, actions } = await webScript('web:shop/t1:1');
    mock.setOptions({ goalScripts: [{ goal, script: actions }] });
    const agent = await makeAgent();
    agent.setKind('web');
    agent.selectWebTask('web:shop/t1:1');
    await agent.run();
    expect(agent.error).toBeNull();
    const t = agent.trajectory!;
    expect(t).toMatchObject({ task: { kind: 'web', id: 'web:shop/t1:1' }, seed: 1, maxSteps: 10, finalScore: 1, termination: 'game_over', story: { title: 'web:shop/t1:1', maxScore: 1 } });
    expect([agent.score, agent.maxScore]).toEqual([1, 1]);
    expect(t.steps.map((s) => s.action)).toEqual(actions);
    expect(t.startPage?.url).toBe('http://shop.test/');
    expect(t.steps.every((s) => s.page !== undefined)).toBe(true);
    // A fill names its element; a click that navigated does not (its id would name another element).
    const clicked = t.steps.map((s, i) => [actions[i]!, s.page!.targetBid] as const).filter(([a]) => /^(click|fill)\(/.test(a));
    expect(clicked.length).toBeGreaterThan(0);
    for (const [action, bid] of clicked) if (bid !== null) expect(action).toContain(`'${bid}'`);
    expect(t.steps.map((s) => s.page!.targetBid)).toEqual([/'(\d+)'/.exec(actions[0]!)![1], null, null, null]);
    expect(agent.page).toEqual(t.steps.at(-1)!.page);
    expect(agent.page?.url).toMatch(/^http:\/\/shop\.test\/product\/SKU-/);
    expect(agent.page?.html).toContain('Aurora Camping Tent');
    // The frame: after the search box's fill, the home page with the box outlined and the typed
    // text in it; after the product link's click (a navigation), the product page, nothing outlined.
    const filled = t.steps[0]!.page!;
    expect(framedPage(t.steps.slice(0, 1), t.startPage)).toEqual({ step: 1, actedOn: true, page: filled });
    expect(actions[0]).toBe(`fill('${filled.targetBid}', 'Aurora Camping Tent')`);
    expect(new RegExp(`<input[^>]*bid="${filled.targetBid}"[^>]*>`).exec(filled.html)![0]).toContain('value="Aurora Camping Tent"');
    expect(framedPage(t.steps.slice(0, 3), t.startPage)).toEqual({ step: 3, actedOn: false, page: t.steps[2]!.page! });
    expect(framedPage([], t.startPage)).toEqual({ step: 0, actedOn: false, page: t.startPage });
    // The observation shown is the accessibility tree the actor read.
    expect(t.steps[0]!.observation).toContain('# Current page: accessibility tree');

    agent.exportTrajectory();
    const file = services.downloads.at(-1)!;
    expect(file.fileName).toBe('trajectory-web-shop-t1-1-seed1.json');
    const fresh = await makeAgent();
    await fresh.importFile(new File([file.text], 'run.json'));
    expect(fresh.error).toBeNull();
    expect(fresh.trajectory?.steps.map((s) => s.page)).toEqual(t.steps.map((s) => s.page));
    expect(fresh.startPage).toEqual(t.startPage);
    expect(fresh.page).toEqual(t.steps.at(-1)!.page);
  });
});
