// The in-host suites, bundled into one file the entry hands to mocha.
import './extension.test';
import './lenses.test';
import './lm-tools.test';
import './compare.test';
