// Debian's firefox-esr over WebDriver BiDi: every page's main path (paths.ts).
import { findFirefox } from './engines';
import { launchFirefox } from './firefox';
import { engineSuite } from './suite';

engineSuite('firefox', findFirefox(), (paths, site) => launchFirefox(paths, site.base));
