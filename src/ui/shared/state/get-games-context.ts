/** The Svelte context key under which the page's GetGamesState is found (set in compose.ts). */
export const GET_GAMES_CONTEXT = Symbol('get-games');
