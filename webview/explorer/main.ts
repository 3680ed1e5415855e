// The graph explorer's entry point (dist/webview/explorer.js): the app is built and started here,
// and nowhere else runs at load. Everything it does is webview/explorer/app.ts and its parts.

import { connect } from '../common/host';
import { Explorer } from './app';
import type { SavedState } from './state';

new Explorer(connect<SavedState>(), document).start();
