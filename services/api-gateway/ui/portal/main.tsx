import { render } from 'preact';
import '../components/base.css';
import './portal.css';
import { App } from './App';

render(<App />, document.getElementById('root')!);
