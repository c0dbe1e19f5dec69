// WebKitGTK's MiniBrowser over classic WebDriver under xvfb-run: every page's main path (paths.ts),
// the site read through the recorder proxy that lets the suite see the console's errors.
import { findWebKit } from './engines';
import { launchWebKit } from './webkit';
import { engineSuite } from './suite';

engineSuite('webkit', findWebKit(), (paths, site) => launchWebKit(paths, site.recordedBase));
