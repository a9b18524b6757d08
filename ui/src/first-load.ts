// The modules the first page load needs that the lazily loaded screens use too. esbuild puts the
// modules reached from the same entries and screens into one chunk; each screen imports this
// module, so all of these are reached from all of them alike and travel as one file, not as a
// chain of small ones (a page would otherwise load eleven, four under a kilobyte).
import "preact";
import "preact/hooks";
import "preact/compat";
import "wouter";
import "./lib/api";
import "./lib/cookie";
import "./lib/errors";
import "./lib/format";
import "./i18n/context";
import "./i18n/counted-users";
import "./lib/language";
import "./lib/operator";
import "./lib/poll";
import "./lib/served";
import "./lib/user-count";
import "./components/icons";
