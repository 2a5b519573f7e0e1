/**
 * Two papers of a tidal sensing field, made up for the deep-research tests: the e2e spec uploads them
 * (e2e/deep-research.spec.ts), and lib/research/deep/clarify.test.ts builds its library of them, so that what it
 * checks offline is what the browser test meets.
 */
export const A_ID = "2407.03141v1";
export const A_TITLE = "Salinity Drift in Tidal Pool Sensor Networks";
export const A_AUTHORS = "Marie Tharp, Rachel Carson";
/**
 * On page 3, alone on its line (short enough not to wrap), and not first under the heading: the quote of a page's first
 * sentence takes in the heading line above it, which the viewer then highlights too.
 */
export const DRIFT_SENTENCE = "Biofouling raised the salinity error to 2.4 units after six weeks.";
export const DRIFT_PAGE = 3;
export const A_PAGES = [
  [
    `arXiv:${A_ID} [physics.ao-ph] 4 Jul 2024`,
    A_TITLE,
    A_AUTHORS,
    "Abstract",
    "We deploy low-cost conductivity sensors in rocky tidal pools and study how their salinity readings drift over a season. Drift grows with biofouling and is corrected by weekly reference sampling.",
    "1 Introduction",
    "Tidal pools change salinity quickly with evaporation and rain. Sensor networks record these changes every minute, but cheap sensors drift.",
  ].join("\n"),
  [
    "2 Sensor network design",
    "Each sensor buoy carries a conductivity cell, a thermistor and a radio that relays readings to a shore gateway.",
    "The shore gateway stores the readings and forwards them over a cellular link.",
    "Battery life reached eleven weeks with solar trickle charging.",
  ].join("\n"),
  [
    "3 Calibration drift",
    "Weekly reference sampling with a handheld refractometer removed most of the calibration drift.",
    DRIFT_SENTENCE,
    "Copper mesh guards slowed biofouling on the conductivity cell.",
  ].join("\n"),
];
export const B_ID = "2407.05926v2";
export const B_TITLE = "Tide-Aware Scheduling for Intertidal Sensor Radios";
export const B_PAGES = [
  [
    `arXiv:${B_ID} [cs.NI] 8 Jul 2024`,
    B_TITLE,
    "Hedy Lamarr",
    "Abstract",
    "Intertidal sensor radios lose packets when the tide covers their antenna. We schedule transmissions around the tide table and recover most lost salinity readings.",
  ].join("\n"),
  [
    "2 Results",
    "Tide-aware scheduling cut packet loss from thirty percent to four percent across three seasons.",
    "Radios sleep while submerged and send buffered readings at low tide.",
  ].join("\n"),
];
/** A comparison (its "more than") whose words both papers use: offline, it asks which of them to compare. */
export const COMPARISON = "Do tidal salinity sensor readings drift more than sensor radio readings?";
