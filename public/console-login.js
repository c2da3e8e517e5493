// Signs in through the API's JSON login; the answer sets the HttpOnly access_token cookie.
'use strict';
(function () {
  var form = document.getElementById('login');
  var problem = document.getElementById('login-problem');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    problem.hidden = true;
    var body = JSON.stringify({ email: form.elements.email.value, password: form.elements.password.value });
    fetch('/authentication/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body,
      credentials: 'same-origin',
    })
      .then(function (res) {
        if (res.ok) {
          window.location.assign(form.getAttribute('data-next') || '/console');
          return undefined;
        }
        return res.json().then(
          function (error) {
            throw new Error(error.message || 'Login failed');
          },
          function () {
            throw new Error('Login failed (' + res.status + ')');
          },
        );
      })
      .catch(function (error) {
        problem.textContent = error.message;
        problem.hidden = false;
      });
  });
})();
