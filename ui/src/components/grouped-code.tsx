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
