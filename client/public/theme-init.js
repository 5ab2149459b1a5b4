// Applies the stored colour theme before the app loads, so a dark page never flashes white.
(function () {
  try {
    var stored = window.localStorage.getItem('color-theme');
    var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    var scheme = stored === 'light' || stored === 'dark' ? stored : dark ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch (e) {
    /* storage unavailable: Mantine decides on mount */
  }
})();
