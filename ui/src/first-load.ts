// The modules the first page load needs that the lazily loaded screens use too. esbuild puts the
// modules reached from the same entries and screens into one chunk; each screen imports this
// module, so all of these are reached from all of them alike and travel as one file, not as a
// chain of small ones (a page would otherwise load eleven, four under a kilobyte).
import "preact";
import "preact/hooks";
import "preact/compat";
import "wouter";
import "./api";
import "./cookie";
import "./errors";
import "./format";
import "./i18n";
import "./language";
import "./operator";
import "./poll";
import "./served";
import "./user-count";
import "../components/icons";
