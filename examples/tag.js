/* A stand-in for a third-party tag (analytics, ads): loaded only once consent allows it. */
document.getElementById('script-log').insertAdjacentHTML('beforeend', '<li>External tag <code>tag.js</code> loaded</li>');
self.exampleTagLoaded = true;
