import { hydrate } from "preact";
import { App } from "../app";
import dictionary from "../i18n/fr";

document.documentElement.classList.add("js");
hydrate(<App language="fr" dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
