/** The back-office console's entry: its styles, then the app in <body>. */
import '@picocss/pico/css/pico.min.css';
import './console.css';
import { render } from 'preact';
import { App } from './app';

render(<App />, document.getElementById('console') ?? document.body);
