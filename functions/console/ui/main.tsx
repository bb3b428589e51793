/** The back-office console's entry: the app in <body>. Its stylesheet is the design system's (lib/console/build.ts). */
import { render } from 'preact';
import { App } from './app';

render(<App />, document.getElementById('console') ?? document.body);
