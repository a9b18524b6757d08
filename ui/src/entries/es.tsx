import { hydrate } from "preact";
import { App } from "../app";
import dictionary from "../i18n/es";

document.documentElement.classList.add("js");
hydrate(<App language="es" dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
