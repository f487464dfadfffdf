// @ts-check
// The shape of a game module (docs/web.md, "Game modules"): what the shell
// asks of every game's js/games/{id}/index.js. A module declares its
// default export of this type, so that an editor checks it; the shell fills
// in what a module leaves out from the plain module (games.js). Nothing
// here runs.

/**
 * A refusal of a move by the rules: a code to key on, the reason in words
 * for the player (game.Refusal).
 * @typedef {{code: string, reason: string}} Refusal
 */

/**
 * What the shell hands a module's table, and the table it gets back.
 * @typedef {Object<string, any>} TableContext
 * @typedef {{el: Element, controls: ?Element, update: Function, key: Function, refused: Function, propose?: Function}} Table
 */

/**
 * @typedef {Object} GameModule
 * @property {{title: string, lede: string, points: Function, picture?: Function, quick?: Function, quickLabel?: string}} [home]
 *   the home page's words and picture, and the games started in one click
 * @property {(option: Object, ctx: Object) => ?Element} [optionField]
 *   a richer control for one of the game's options, or null for the shell's
 * @property {(ctx: Object) => ?Element} [clockField]
 *   the clock and the options that go with it as one control, in place of the shell's Clock
 * @property {(options: Object) => string} [describeOptions]
 *   a few words for the lobby and the join dialog
 * @property {(ctx: TableContext, opts: {interactive: boolean}) => Table} [table]
 *   the table: the board, its controls, and how it follows the game
 * @property {(phase: string) => string} [phaseName] the chip's words
 * @property {(state: Object) => string} [progress] how far the game is, beside the chip
 * @property {(view: Object, seat: number) => (string|Element)} [prompt] the banner's words
 * @property {(view: Object, seat: number) => ?Element} [seatCard] what a seat's card shows of it
 * @property {(view: Object, seat: number) => ?string} [scoreNote] what a card shows beside the points
 * @property {(view: Object, short: boolean, n?: number) => string} [scoreUnit] what the scores count, short for a card ("pts") or in full; n: the score it follows, where there is one
 * @property {(view: Object, seat: number, table: Object) => ?string} [idle] why a seat's turns are skipped now
 * @property {(view: Object, seats: Object[]) => ?Element} [scoreSheet] the score sheet tab
 * @property {(move: Object) => ?string} [logGroup] the log's headings
 * @property {(move: Object, seats: Object[], table: Object) => any} [describeMove] a move as a player says it
 * @property {(move: Object, who: {mine: boolean, name: string}) => ?string} [moveSaid] the message line after a move
 * @property {(move: ?string, refusal: Refusal) => string} [refusal]
 *   the message when the rules refuse the viewer's move, keyed on the refusal's code
 * @property {(move: Object, seats: Object[], opts: {playing: boolean}) => ?Object} [phaseSummary]
 *   a dialog when a move ended something worth one
 * @property {(view: Object, seats: Object[]) => ?Object} [result] the winner's dialog's details
 * @property {(state: Object) => boolean} [recordOpen] whether the record may be downloaded yet
 * @property {string} [startCaption] the replay's caption before the first move
 * @property {() => Element} [rulesPage] the rules page
 * @property {() => Element} [rulesSummary] the Rules tab
 * @property {(seats: Object[]) => Element} [legend] the Legend tab
 */

export {};
