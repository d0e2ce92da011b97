/**
 * The modules that build zod schemas when evaluated (import and export of sessions, trajectories,
 * evolution runs, meta-prompt entries and share links), imported for that effect alone: main.ts
 * evaluates them in a main-thread task before the composition root's, so that neither is long.
 */
import '../../agents/trajectory-io.ts';
import '../../evolve/evolution-io.ts';
import '../../share/share-link.ts';
import '../../ttl/session-io.ts';
import '../shared/stores/entry-io.ts';
