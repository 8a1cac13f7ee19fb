import { strings } from '../strings';
import { ROLES_DOWN, roleName } from './roles';

/** What each role may do (conventions.md, Roles), the person's own role marked. */
export function RolesTable({ yours }: { yours: string | null }) {
  return (
    <section className="card" aria-labelledby="roles-title">
      <h2 id="roles-title">{strings.members.rolesTitle}</h2>
      <table className="plain-table roles-table" aria-labelledby="roles-title">
        <caption className="hint">{strings.members.rolesCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{strings.members.roleColumn}</th>
            <th scope="col">{strings.members.mayColumn}</th>
          </tr>
        </thead>
        <tbody>
          {ROLES_DOWN.map((role) => (
            <tr key={role} className={role === yours ? 'yours' : undefined}>
              <th scope="row">
                {role === yours ? strings.members.yourRoleMark(roleName(role)) : roleName(role)}
              </th>
              <td>{strings.members.roleMay[role]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
