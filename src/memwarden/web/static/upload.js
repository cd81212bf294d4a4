// memwarden dashboard: the one script, a progressive enhancement of the document upload
// form. It sends the same multipart POST with XMLHttpRequest to show its progress; without
// it (or if it fails) the form posts as usual. No inline script anywhere (see the CSP).
"use strict";
document.querySelectorAll("form[data-upload]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    var bar = form.querySelector("progress");
    if (!bar || !window.FormData || form.dataset.sending) {
      return;
    }
    event.preventDefault();
    form.dataset.sending = "1";
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) {
        bar.max = e.total;
        bar.value = e.loaded;
      }
    });
    xhr.addEventListener("load", function () {
      if (xhr.status < 400) {
        window.location.assign(xhr.responseURL || form.action);
      } else {
        form.submit(); // let the server's error page show, as without this script
      }
    });
    xhr.addEventListener("error", function () {
      form.submit();
    });
    bar.hidden = false;
    xhr.send(new FormData(form));
  });
});
