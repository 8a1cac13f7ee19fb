// The suffix of a placeholder (an online-only file beside where the file would be:
// `report.pdf.wsync`, issue 41), named once here for every side that needs it: the engine that
// writes placeholders and the file managers' opener (src/main/os/open-handler.ts, whose MIME glob
// is `*` and this).
export const PLACEHOLDER_SUFFIX = '.wsync';
