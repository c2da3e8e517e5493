import { html, type Html } from '../html.js';
import { layout } from './layout.js';

/**
 * The login form. Its script posts to the API's own POST /authentication/login, so the console signs in
 * exactly like any client (same checks, throttle and cookie); the browser then follows `next`.
 */
export function loginPage(next: string): Html {
  return layout(
    { title: 'Log in' },
    html`
<form id="login" class="card" data-next="${next}">
<label>Email <input type="email" name="email" autocomplete="username" required autofocus></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
<p id="login-problem" class="notice error" role="alert" hidden></p>
</form>
<noscript><p class="notice error">The console's login needs JavaScript (it calls the API's JSON login); everything after it is plain HTML.</p></noscript>
<script src="/assets/console-login.js"></script>`,
  );
}
