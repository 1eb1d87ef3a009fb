// For each card of the gallery: its number's contrast against what lies behind it (WCAG
// relative luminance), whether it has its colour's symbol and a picture, and which picture.
(() => {
  const lum = (hex) => {
    const v = hex.replace('#', '');
    const full = v.length === 3 ? [...v].map((c) => c + c).join('') : v;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return [...document.querySelectorAll('#gallery svg[data-ink]')].map((c) => ({
    game: c.closest('.gallery-row').dataset.game, label: c.getAttribute('aria-label'),
    ratio: ratio(c.dataset.ink, c.dataset.paper), symbol: !!c.querySelector('.symbol'),
    art: c.querySelectorAll('.face-art *').length,
    kind: c.dataset.art || c.dataset.symbol || '' }));
})
