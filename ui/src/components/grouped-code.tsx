import { CODE_GROUP_LENGTH, CODE_LENGTH } from "../lib/check-digit";
import { slot } from "../lib/served";

/** The activation code's groups as the server fills them (CODE_1 … CODE_5; forms.py: code_groups). */
export const SERVED_CODE_GROUPS: string[] = Array.from({ length: CODE_LENGTH / CODE_GROUP_LENGTH }, (_, i) => slot(`CODE_${i + 1}`));

/** The code in groups of four (codeGroups); the digits alone when selected or copied. */
export function GroupedCode({ groups, id }: { groups: string[]; id?: string }) {
  return (
    <code id={id} class="code">
      {groups.map((group, index) => (
        <span key={index} class="code-group">{group}</span>
      ))}
    </code>
  );
}
