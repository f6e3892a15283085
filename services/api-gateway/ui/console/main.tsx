import { render } from 'preact';
import '../components/base.css';
import './console.css';
import { App } from './App';

render(<App />, document.getElementById('root')!);
