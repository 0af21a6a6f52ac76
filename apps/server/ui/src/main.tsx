// Entry of the browser UI bundle (built by Vite into dist/ui, served by the host).
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import './app.css';

const root = document.getElementById('root');
if (root === null) throw new Error('the page has no #root element');
createRoot(root).render(<App />);
