// Starts Swagger UI on the page's #api-reference element. A file of its own, not an inline script,
// so the page's Content-Security-Policy can allow scripts from its own origin only.
(() => {
  var root = document.getElementById('api-reference');
  window.ui = SwaggerUIBundle({
    url: root.dataset.documentUrl,
    domNode: root,
    deepLinking: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for its badge.
    validatorUrl: null,
    // "Try it out" only where the API shares the page's origin (locally); see docs/api.md.
    supportedSubmitMethods: root.dataset.tryItOut === 'true' ? ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'] : [],
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
})();
