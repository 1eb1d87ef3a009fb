// Every game's card faces on one page (test_comfort_round3_browser.py): a row per colour,
// suit, band or kind to check, and one strip per game for the README (docs/img/).
(async () => {
  const faces = {};
  for (const game of ['hanabi', 'ikebana', 'alebrijes', 'allegra']) faces[game] = await import(`/static/js/ui/faces/${game}.js`);
  const aj = await import('/static/js/games/ajolocracia.js');
  const root = document.createElement('div');
  root.id = 'gallery';
  root.className = 'card';
  const row = (game, cards) => {
    const line = document.createElement('div');
    line.className = 'gallery-row';
    line.dataset.game = game;
    line.style.display = 'flex'; line.style.flexWrap = 'wrap'; line.style.gap = '6px'; line.style.margin = '0 0 8px';
    for (const c of cards) { c.style.width = '60px'; c.style.height = '84px'; line.append(c); }
    root.append(line);
  };
  root.append(faces.hanabi.rainbowDefs(), faces.ikebana.ikebanaDefs());
  for (const color of ['red', 'green', 'black', 'blue', 'yellow', 'multi'])
    row('hanabi', [1, 2, 3, 4, 5].map((rank) => faces.hanabi.hanabiFace({ color, rank, label: `${color} ${rank}` })));
  for (const colour of ['red', 'yellow', 'green', 'blue', 'black', 'wild'])
    row('ikebana', [1, 3, 5].map((number) => faces.ikebana.ikebanaFace({ colour, number, label: `${colour} ${number}` })));
  for (const suit of ['blue', 'green', 'pink', 'orange', 'wild'])
    row('alebrijes', [1, 3, 5].map((number) => faces.alebrijes.alebrijeFace({ suit, number, ollin: number === 3 && suit !== 'wild', label: `${suit} ${number}` })));
  row('allegra', [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((value) => faces.allegra.allegraFace({ value, label: String(value) })));
  row('ajolocracia', ['citizenship_1', 'citizenship_2', 'citizenship_3', 'isopods_algae', 'beetles_annelids', 'institution',
    'mexicanum', 'lermaense', 'rosaceum', 'environment', 'ine', 'value'].map((kind) => aj.cardSvg(kind, kind)));
  // one strip per game for the README: each colour, suit, band or kind once
  const sample = document.createElement('div');
  sample.id = 'samples';
  const strip = (game, cards) => {
    const line = document.createElement('div');
    line.className = 'sample-row';
    line.dataset.game = game;
    line.style.display = 'flex'; line.style.gap = '8px'; line.style.padding = '8px';
    line.style.background = '#f4f1ea'; line.style.width = 'max-content';
    for (const c of cards) { c.style.width = '72px'; c.style.height = '101px'; line.append(c); }
    sample.append(line);
  };
  strip('hanabi', [['red', 1], ['green', 2], ['black', 3], ['blue', 4], ['yellow', 5], ['multi', 5]]
    .map(([color, rank]) => faces.hanabi.hanabiFace({ color, rank, label: `${color} ${rank}` })));
  strip('ikebana', [['red', 1], ['yellow', 2], ['green', 3], ['blue', 4], ['black', 5], ['wild', 3]]
    .map(([colour, number]) => faces.ikebana.ikebanaFace({ colour, number, label: `${colour} ${number}` })));
  strip('alebrijes', [['blue', 1], ['green', 2], ['pink', 3], ['orange', 4], ['wild', 5]]
    .map(([suit, number]) => faces.alebrijes.alebrijeFace({ suit, number, ollin: number === 2, label: `${suit} ${number}` })));
  strip('allegra', [faces.allegra.allegraBack({ label: 'back' }),
    ...[-1, 0, 3, 6, 9, 11].map((value) => faces.allegra.allegraFace({ value, label: String(value) }))]);
  strip('ajolocracia', ['citizenship_3', 'isopods_algae', 'beetles_annelids', 'institution', 'mexicanum', 'environment', 'ine', 'value']
    .map((kind) => aj.cardSvg(kind, kind)));
  document.querySelector('main').replaceChildren(root, sample);
})
