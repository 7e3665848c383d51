// Semantic UI's stylesheets for what shows before sign-in and on every screen (the sign-in and
// forgot-password pages, the 404 page, loaders, toasts): main.tsx loads them with the console.
// Semantic UI's other components load with the signed-in frame (./signed-in.ts), so the sign-in
// page does not wait for CSS it does not use (issue 17). A component used outside the signed-in
// frame goes here; the build keeps only the rules the sources use (client/build/semantic-ui-css.ts).
import 'semantic-ui-css/components/reset.min.css';
import 'semantic-ui-css/components/site.min.css';
import 'semantic-ui-css/components/button.min.css';
import 'semantic-ui-css/components/header.min.css';
import 'semantic-ui-css/components/icon.min.css';
import 'semantic-ui-css/components/image.min.css';
import 'semantic-ui-css/components/input.min.css';
import 'semantic-ui-css/components/label.min.css';
import 'semantic-ui-css/components/loader.min.css';
import 'semantic-ui-css/components/segment.min.css';
import 'semantic-ui-css/components/form.min.css';
import 'semantic-ui-css/components/message.min.css';
