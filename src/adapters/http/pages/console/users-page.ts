import type { UserAccount } from '../../../../core/accounts/users.js';
import { MIN_PASSWORD } from '../../../../core/accounts/user-request.js';
import { html, type Html } from '../html.js';
import { csrfField, layout, type PageFrame } from './layout.js';

/** What the add form was filled with, kept when it comes back with a problem (never the password). */
export interface NewUserForm {
  email?: string;
  admin?: boolean;
}

const action = (email: string, what: string): string => `/console/users/${encodeURIComponent(email)}/${what}`;

/** An organisation admin's users: each with enable/disable, a password reset and remove; and the add form. */
export function usersPage(frame: PageFrame, users: UserAccount[], form: NewUserForm = {}): Html {
  const csrf = frame.csrf ?? '';
  const self = frame.principal?.email;
  const rows = users.map(
    (u) => html`<tr data-user="${u.email}">
<td>${u.email}</td>
<td>${u.admin ? 'admin' : 'user'}</td>
<td>${u.disabled ? 'disabled' : 'active'}</td>
<td>${u.fromApi ? 'organisation' : 'seed'}</td>
<td>${
      u.email === self
        ? 'you'
        : html`<form method="post" action="${action(u.email, u.disabled ? 'enable' : 'disable')}" class="inline">${csrfField(csrf)}<button type="submit">${u.disabled ? 'Enable' : 'Disable'}</button></form>
<form method="post" action="${action(u.email, 'remove')}" class="inline">${csrfField(csrf)}<button type="submit" class="danger">Remove</button></form>`
    }
<form method="post" action="${action(u.email, 'password')}" class="inline">${csrfField(csrf)}<input type="password" name="password" minlength="${String(MIN_PASSWORD)}" autocomplete="new-password" aria-label="New password for ${u.email}" required><button type="submit">Reset password</button></form></td>
</tr>`,
  );
  return layout(
    frame,
    html`
<p>Disabling a user, removing it or resetting its password ends its sessions at once.</p>
<table class="list" id="users">
<thead><tr><th>Email</th><th>Role</th><th>State</th><th>Managed by</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table>
<h2>Add a user</h2>
<form method="post" action="/console/users" class="card" id="add-user">
${csrfField(csrf)}
<label>Email <input type="email" name="email" value="${form.email ?? ''}" required></label>
<label>Password (at least ${String(MIN_PASSWORD)} characters) <input type="password" name="password" minlength="${String(MIN_PASSWORD)}" autocomplete="new-password" required></label>
<label><input type="checkbox" name="admin" value="true"${form.admin ? html` checked` : ''}> Administrator of the organisation</label>
<button type="submit">Add</button>
</form>`,
  );
}
