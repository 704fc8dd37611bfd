// Progressive enhancement only: every page works without this file (plain forms).
// 1. A pressed move button turns into "Sending…" (in the page's language: the template puts
//    the text on <body data-sending>) and the form cannot be sent twice.
// 2. On the Machu Picchu map, choosing a district moves the focus to its move button.
// 3. The local mailbox's preview of a mail is as tall as the mail, not a box that scrolls.
// 4. The new-game form: only the chosen game's options are sent, the number of players keeps
//    to the game's range, and as many name rows show as there are seats to invite.
// 5. Accepting a seat: the player's share of the game's chance is made here, 16 random bytes
//    from crypto.getRandomValues as 32 hex digits, unless they typed their own (without this
//    file the field stays empty and the service draws the share).
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent === "1") { event.preventDefault(); return; }
    form.dataset.sent = "1";
    var buttons = form.querySelectorAll("button[type=submit]");
    var sending = document.body.getAttribute("data-sending") || "Sending…";
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-disabled", "true");
      buttons[i].dataset.label = buttons[i].textContent;
      buttons[i].textContent = sending;
    }
  });
  window.addEventListener("pageshow", function () {  // back button: make forms usable again
    var forms = document.querySelectorAll("form[data-sent='1']");
    for (var i = 0; i < forms.length; i++) {
      forms[i].dataset.sent = "";
      var buttons = forms[i].querySelectorAll("button[data-label]");
      for (var j = 0; j < buttons.length; j++) {
        buttons[j].textContent = buttons[j].dataset.label;
        buttons[j].removeAttribute("aria-disabled");
      }
    }
  });
  document.addEventListener("click", function (event) {
    var district = event.target.closest && event.target.closest("[data-district]");
    if (!district) { return; }
    var id = district.getAttribute("data-district");
    var buttons = document.querySelectorAll("form button");
    for (var i = 0; i < buttons.length; i++) {
      var input = buttons[i].form.querySelector("input[name=action]");
      if (input && input.value.indexOf('"' + id + '"') !== -1) { buttons[i].focus(); return; }
    }
  });
  function fitToMail(frame) {
    var mail = frame.contentDocument;  // the preview's sandbox keeps the page's origin for this
    if (!mail || !mail.documentElement) { return; }
    frame.style.height = "auto";  // measure the mail at this width, not the frame's old height
    frame.style.height = mail.documentElement.scrollHeight + 2 + "px";  // and the borders
  }
  var previews = document.querySelectorAll("iframe.mail-preview");
  function fitPreviews() {
    for (var i = 0; i < previews.length; i++) { fitToMail(previews[i]); }
  }
  for (var i = 0; i < previews.length; i++) { previews[i].addEventListener("load", fitPreviews); }
  fitPreviews();  // a preview that loaded before this script ran
  window.addEventListener("resize", fitPreviews);

  var shares = document.querySelectorAll("input[data-contribution]");
  for (var k = 0; k < shares.length; k++) {
    if (shares[k].value === "" && window.crypto && window.crypto.getRandomValues) {
      shares[k].value = randomHex(16);
    }
  }
  function randomHex(count) {
    var bytes = new Uint8Array(count);
    window.crypto.getRandomValues(bytes);
    var text = "";
    for (var i = 0; i < bytes.length; i++) { text += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); }
    return text;
  }

  var newGame = document.getElementById("new-game");
  if (newGame) { newGameForm(newGame); }
  function newGameForm(form) {
    var game = form.querySelector("#game");
    var players = form.querySelector("#players");
    var ownSeat = form.querySelector("input[name=organiser_seat]");
    var rows = form.querySelectorAll(".player-row");
    var rowButtons = form.querySelector(".row-buttons");
    function chosen() { return game.options[game.selectedIndex]; }
    function rowsWanted() {
      var n = parseInt(players.value, 10) || parseInt(players.min, 10) || 1;
      return Math.max(1, Math.min(rows.length, n - (ownSeat && ownSeat.checked ? 1 : 0)));
    }
    function showRows() {
      var wanted = rowsWanted();
      for (var i = 0; i < rows.length; i++) {
        var named = Array.prototype.some.call(rows[i].querySelectorAll("input"),
                                              function (input) { return input.value !== ""; });
        rows[i].hidden = i >= wanted && !named;  // a row already filled in never disappears
      }
    }
    function showGame() {
      var option = chosen();
      var sets = form.querySelectorAll(".game-options");
      for (var i = 0; i < sets.length; i++) {
        var mine = sets[i].dataset.game === option.value;
        sets[i].hidden = !mine;
        sets[i].disabled = !mine;
        sets[i].style.display = mine ? "block" : "none";
      }
      players.min = option.dataset.min;
      players.max = option.dataset.max;
      var n = parseInt(players.value, 10);
      if (isNaN(n) || n < +players.min) { players.value = players.min; }
      if (n > +players.max) { players.value = players.max; }
      showRows();
    }
    function change(by) {
      var n = (parseInt(players.value, 10) || +players.min) + by;
      players.value = Math.max(+players.min, Math.min(+players.max, n));
      showRows();
    }
    if (rowButtons) {
      rowButtons.hidden = false;
      rowButtons.addEventListener("click", function (event) {
        var which = event.target.dataset && event.target.dataset.rows;
        if (which) { change(which === "add" ? 1 : -1); }
      });
    }
    game.addEventListener("change", showGame);
    players.addEventListener("input", showRows);
    if (ownSeat) { ownSeat.addEventListener("change", showRows); }
    showGame();
  }
})();
