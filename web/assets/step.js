// Step through the phases with the arrow keys; the page works without it.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var id = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : "";
  var a = id && document.getElementById(id);
  if (a) window.location.href = a.getAttribute("href");
});
